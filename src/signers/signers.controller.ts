import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { ValidationError } from '../common/errors/domain-errors';
import { ApiErrors } from '../common/http/openapi.decorators';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { CreateSignerDto, SignerResponse } from './dto/signer.dto';
import { SignersService } from './signers.service';
import { SignerCreateRules, type NewSigner } from './signers.validation';
import { signerNotFound } from './signers.errors';
import { RequirePermission } from '../common/auth/require-permission.decorator';
import { Route } from '../common/http/route.decorator';

const SignerId = (): ParameterDecorator => Param('signer_id', new ParseIdPipe(signerNotFound));

/** docs/reference/networks-and-signers.md#3-signers, in the SDK's shapes. */
@ApiTags('signers')
@ApiBearerAuth()
@Controller('signers')
export class SignersController {
  constructor(private readonly signers: SignersService) {}

  @Get()
  @Route({ permission: 'signers:read', status: 200, response: SignerResponse, list: true })
  list(@Query() query: PageQueryDto): Promise<Page<SignerResponse>> {
    return this.signers.list(query);
  }

  @Get(':signer_id')
  @Route({ permission: 'signers:read', status: 200, response: SignerResponse, errors: [404] })
  get(@SignerId() id: string): Promise<SignerResponse> {
    return this.signers.get(id);
  }

  @Post()
  @Route({
    permission: 'signers:write',
    status: 201,
    response: SignerResponse,
    body: CreateSignerDto,
    errors: [409, 504],
  })
  create(@ValidBody(SignerCreateRules) body: NewSigner): Promise<SignerResponse> {
    return this.signers.create(body);
  }

  /** A key never changes under a relayer: delete the signer and create another. */
  @Patch(':signer_id')
  @ApiParam({ name: 'signer_id', type: String })
  @RequirePermission('signers:write')
  @HttpCode(400)
  @ApiErrors(400, 401, 429)
  update(): never {
    throw new ValidationError('Signer updates are not allowed: delete the signer and create a new one');
  }

  @Delete(':signer_id')
  @Route({ permission: 'signers:write', status: 200, response: String, errors: [404, 409, 504] })
  remove(@SignerId() id: string): Promise<string> {
    return this.signers.remove(id);
  }
}
