import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors, ApiJsonBody } from '../common/http/openapi';
import { Page, PageQueryDto } from '../common/http/page';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import type { Checked } from '../common/validation/validate-dto';
import { CheckedBodyPipe } from '../common/validation/validation.pipe';
import { CreateRelayerDto, RelayerResponse, UpdateRelayerDto } from './dto/relayer.dto';
import { relayerNotFound, RelayersService } from './relayers.service';

const RelayerId = (): ParameterDecorator => Param('relayer_id', new ParseIdPipe(relayerNotFound));

@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers')
export class RelayersController {
  constructor(private readonly relayers: RelayersService) {}

  @Post()
  @ApiJsonBody()
  @HttpCode(201)
  @ApiBody({ type: CreateRelayerDto })
  @ApiEnvelope(RelayerResponse, 201)
  @ApiErrors(400, 401, 409, 413, 415, 429, 500, 503, 504)
  create(
    @Body(new CheckedBodyPipe(CreateRelayerDto)) body: Checked<CreateRelayerDto>,
  ): Promise<RelayerResponse> {
    return this.relayers.create(body);
  }

  @Get()
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500, 503)
  list(@Query() query: PageQueryDto): Promise<Page<RelayerResponse>> {
    return this.relayers.list(query);
  }

  @Get(':relayer_id')
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  get(@RelayerId() id: string): Promise<RelayerResponse> {
    return this.relayers.get(id);
  }

  @Patch(':relayer_id')
  @ApiJsonBody()
  @HttpCode(200)
  @ApiBody({ type: UpdateRelayerDto })
  @ApiEnvelope(RelayerResponse, 200)
  @ApiErrors(400, 401, 404, 413, 415, 429, 500, 503, 504)
  update(
    @RelayerId() id: string,
    @Body(new CheckedBodyPipe(UpdateRelayerDto)) body: Checked<UpdateRelayerDto>,
  ): Promise<RelayerResponse> {
    return this.relayers.update(id, body);
  }

  @Delete(':relayer_id')
  @HttpCode(200)
  @ApiEnvelope(String, 200)
  @ApiErrors(401, 404, 429, 500, 503, 504)
  remove(@RelayerId() id: string): Promise<string> {
    return this.relayers.remove(id);
  }
}
