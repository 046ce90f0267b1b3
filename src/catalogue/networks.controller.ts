import { Body, Controller, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors, ApiJsonBody } from '../common/http/openapi';
import { Page, PageQueryDto } from '../common/http/page';
import { RpcConfigDto } from '../common/validation/rpc-url-list';
import type { Checked } from '../common/validation/validate-dto';
import { CheckedBodyPipe } from '../common/validation/validation.pipe';
import { NetworkResponse, UpdateNetworkDto } from './dto/network.dto';
import { NetworksService } from './networks.service';
import { RequirePermission } from '../common/auth/require-permission.decorator';

/** The catalogue's networks by `<type>:<name>` (docs/reference/networks-and-signers.md#4-networks), in the SDK's shapes. */
@ApiTags('networks')
@ApiBearerAuth()
@ApiExtraModels(RpcConfigDto)
@Controller('networks')
export class NetworksController {
  constructor(private readonly networks: NetworksService) {}

  @Get()
  @RequirePermission('networks:read')
  @HttpCode(200)
  @ApiEnvelope(NetworkResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500, 503)
  list(@Query() query: PageQueryDto): Promise<Page<NetworkResponse>> {
    return this.networks.list(query);
  }

  @Get(':network_id')
  @RequirePermission('networks:read')
  @HttpCode(200)
  @ApiEnvelope(NetworkResponse, 200)
  @ApiErrors(401, 404, 429, 500, 503)
  get(@Param('network_id') id: string): Promise<NetworkResponse> {
    return this.networks.get(id);
  }

  /** Replaces the network's RPC list on every instance; nothing else of a network changes here. */
  @Patch(':network_id')
  @RequirePermission('networks:write')
  @ApiJsonBody()
  @HttpCode(200)
  @ApiBody({ type: UpdateNetworkDto })
  @ApiEnvelope(NetworkResponse, 200)
  @ApiErrors(400, 401, 404, 413, 415, 429, 500, 503, 504)
  update(
    @Param('network_id') id: string,
    @Body(new CheckedBodyPipe(UpdateNetworkDto)) body: Checked<UpdateNetworkDto>,
  ): Promise<NetworkResponse> {
    return this.networks.update(id, body);
  }
}
