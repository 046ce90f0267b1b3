import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import { IfMatch, IfMatchHeader, Tagged } from '../common/http/etag';
import { ApiDryRun, ApiEnvelope, ApiErrors, ApiIfMatch, ApiJsonBody } from '../common/http/openapi';
import { Page, PageQueryDto } from '../common/http/page';
import { ParseFlagPipe } from '../common/validation/parse-flag.pipe';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import type { Checked } from '../common/validation/validate-dto';
import { CheckedBodyPipe } from '../common/validation/validation.pipe';
import { CreateRelayerDto, RelayerResponse, UpdateRelayerDto } from './dto/relayer.dto';
import { relayerNotFound, RelayersService } from './relayers.service';
import { RequirePermission } from '../common/auth/require-permission.decorator';

const RelayerId = (): ParameterDecorator => Param('relayer_id', new ParseIdPipe(relayerNotFound));

@ApiTags('relayers')
@ApiBearerAuth()
@Controller('relayers')
export class RelayersController {
  constructor(private readonly relayers: RelayersService) {}

  @Post()
  @RequirePermission('relayers:write')
  @ApiJsonBody()
  @HttpCode(201)
  @ApiBody({ type: CreateRelayerDto })
  @ApiEnvelope(RelayerResponse, 201, { etag: true })
  @ApiDryRun()
  @ApiErrors(400, 401, 409, 413, 415, 429, 500, 503, 504)
  create(
    @Body(new CheckedBodyPipe(CreateRelayerDto)) body: Checked<CreateRelayerDto>,
    @Query('dry_run', new ParseFlagPipe('dry_run')) dryRun: boolean,
  ): Promise<Tagged<RelayerResponse>> {
    return this.relayers.create(body, { dryRun });
  }

  @Get()
  @RequirePermission('relayers:read')
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500, 503)
  list(@Query() query: PageQueryDto): Promise<Page<RelayerResponse>> {
    return this.relayers.list(query);
  }

  @Get(':relayer_id')
  @RequirePermission('relayers:read')
  @HttpCode(200)
  @ApiEnvelope(RelayerResponse, 200, { etag: true })
  @ApiErrors(401, 404, 429, 500, 503)
  get(@RelayerId() id: string): Promise<Tagged<RelayerResponse>> {
    return this.relayers.getTagged(id);
  }

  @Patch(':relayer_id')
  @RequirePermission('relayers:write')
  @ApiJsonBody()
  @HttpCode(200)
  @ApiBody({ type: UpdateRelayerDto })
  @ApiEnvelope(RelayerResponse, 200, { etag: true })
  @ApiIfMatch()
  @ApiDryRun()
  @ApiErrors(400, 401, 404, 412, 413, 415, 429, 500, 503, 504)
  update(
    @RelayerId() id: string,
    @Body(new CheckedBodyPipe(UpdateRelayerDto)) body: Checked<UpdateRelayerDto>,
    @IfMatchHeader() ifMatch: IfMatch | null,
    @Query('dry_run', new ParseFlagPipe('dry_run')) dryRun: boolean,
  ): Promise<Tagged<RelayerResponse>> {
    return this.relayers.update(id, body, { ifMatch, dryRun });
  }

  @Delete(':relayer_id')
  @RequirePermission('relayers:write')
  @HttpCode(200)
  @ApiEnvelope(String, 200)
  @ApiIfMatch()
  @ApiErrors(401, 404, 412, 429, 500, 503, 504)
  remove(@RelayerId() id: string, @IfMatchHeader() ifMatch: IfMatch | null): Promise<string> {
    return this.relayers.remove(id, { ifMatch });
  }
}
