import { Controller, Get, HttpCode, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi';
import { Page, PageQueryDto } from '../common/http/page';
import { maskUrl } from '../common/security/url-masking';
import { Catalogue } from './catalogue';
import type { CatalogueNetwork } from './catalogue.types';
import { NetworkResponse, SignerResponse } from './dto/catalogue.dto';

export function toNetworkResponse(network: CatalogueNetwork): NetworkResponse {
  return {
    type: network.type,
    network: network.network,
    ...(network.chain_id !== undefined ? { chain_id: network.chain_id } : {}),
    ...(network.passphrase !== undefined ? { passphrase: network.passphrase } : {}),
    is_testnet: network.is_testnet,
    rpc_urls: network.rpc_urls.map(maskUrl),
  };
}

/** Read-only views of the catalogue, so operators see what relayers may reference. */
@ApiTags('catalogue')
@ApiBearerAuth()
@Controller()
export class CatalogueController {
  constructor(private readonly catalogue: Catalogue) {}

  @Get('networks')
  @HttpCode(200)
  @ApiEnvelope(NetworkResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500)
  networks(@Query() query: PageQueryDto): Page<NetworkResponse> {
    const all = this.catalogue.listNetworks();
    return new Page(
      all.slice(query.offset, query.offset + query.per_page).map(toNetworkResponse),
      query,
      all.length,
    );
  }

  @Get('signers')
  @HttpCode(200)
  @ApiEnvelope(SignerResponse, 200, { list: true })
  @ApiErrors(400, 401, 429, 500)
  signers(@Query() query: PageQueryDto): Page<SignerResponse> {
    const items = this.catalogue.listSignerPage(query.offset, query.per_page);
    return new Page(items, query, this.catalogue.signerCount);
  }
}
