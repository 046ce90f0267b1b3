import { networkId, type CatalogueNetwork } from '../catalogue';
import { maskUrl } from '../common/security/url-masking';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import { NetworkResponse } from './dto/network.dto';

export function toNetworkResponse(network: CatalogueNetwork, rpcUrls: readonly RpcUrl[]): NetworkResponse {
  const response: NetworkResponse = {
    id: networkId(network.type, network.network),
    name: network.network,
    network_type: network.type,
    rpc_urls: rpcUrls.map((rpc) => ({ url: maskUrl(rpc.url), weight: rpc.weight })),
    is_testnet: network.is_testnet,
  };
  if (network.chain_id !== undefined) response.chain_id = network.chain_id;
  if (network.passphrase !== undefined) response.passphrase = network.passphrase;
  if (network.symbol !== undefined) response.symbol = network.symbol;
  if (network.explorer_urls !== undefined) response.explorer_urls = [...network.explorer_urls];
  if (network.average_blocktime_ms !== undefined)
    response.average_blocktime_ms = network.average_blocktime_ms;
  if (network.required_confirmations !== undefined) {
    response.required_confirmations = network.required_confirmations;
  }
  if (network.features !== undefined) response.features = [...network.features];
  if (network.tags !== undefined) response.tags = [...network.tags];
  if (network.horizon_url !== undefined) response.horizon_url = network.horizon_url;
  if (network.gas_price_cache !== undefined) response.gas_price_cache = { ...network.gas_price_cache };
  if (network.status_check !== undefined) response.status_check = { ...network.status_check };
  return response;
}
