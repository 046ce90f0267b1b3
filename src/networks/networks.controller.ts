import { Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Page, PageQueryDto } from '../common/http/page.dto';
import { RpcConfigDto } from '../common/validation/rpc-config.dto';
import { ValidBody } from '../common/validation/dto-validation.pipe';
import { NetworkResponse, UpdateNetworkDto } from './dto/network.dto';
import { NetworksService } from './networks.service';
import { NetworkPatchRules } from './networks.validation';
import { Route } from '../common/http/route.decorator';

/** The catalogue's networks by `<type>:<name>` (docs/reference/networks-and-signers.md#4-networks), in the SDK's shapes. */
@ApiTags('networks')
@ApiBearerAuth()
@ApiExtraModels(RpcConfigDto)
@Controller('networks')
export class NetworksController {
  constructor(private readonly networks: NetworksService) {}

  @Get()
  @Route({ permission: 'networks:read', status: 200, response: NetworkResponse, list: true })
  list(@Query() query: PageQueryDto): Promise<Page<NetworkResponse>> {
    return this.networks.list(query);
  }

  @Get(':network_id')
  @Route({ permission: 'networks:read', status: 200, response: NetworkResponse, errors: [404] })
  get(@Param('network_id') id: string): Promise<NetworkResponse> {
    return this.networks.get(id);
  }

  /** Replaces the network's RPC list on every instance; nothing else of a network changes here. */
  @Patch(':network_id')
  @Route({
    permission: 'networks:write',
    status: 200,
    response: NetworkResponse,
    body: UpdateNetworkDto,
    errors: [404, 504],
  })
  update(
    @Param('network_id') id: string,
    @ValidBody(NetworkPatchRules) body: UpdateNetworkDto,
  ): Promise<NetworkResponse> {
    return this.networks.update(id, body);
  }
}
