import { RelayerNetworkType } from '@openzeppelin/relayer-sdk';
import { useTestApp } from '../support/test-app';
import { KEY1 } from '../support/test-catalogue';
import { type Sdk, sdkFor, refusal, refused } from './sdk';

describe('Runtime: the methods of the relayer runtime (transactions, signing, RPC, plugins) → 404', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);
  const relayer = 'runtime-relayer';
  const solanaTx = { fee_token: 'So11111111111111111111111111111111111111112', transaction: 'AQ==' };
  beforeAll(async () => {
    await sdk().relayers.createRelayer({
      id: relayer,
      name: 'runtime',
      network: 'sepolia',
      network_type: RelayerNetworkType.EVM,
      paused: false,
      signer_id: KEY1.id,
    });
  });

  it.each<[string, (api: Sdk) => Promise<unknown>]>([
    ['buildSponsoredTransaction', (api) => api.relayers.buildSponsoredTransaction(relayer, solanaTx)],
    ['quoteSponsoredTransaction', (api) => api.relayers.quoteSponsoredTransaction(relayer, solanaTx)],
    ['sendTransaction', (api) => api.relayers.sendTransaction(relayer, { value: 1, to: KEY1.evm })],
    ['listTransactions', (api) => api.relayers.listTransactions(relayer)],
    ['getTransactionById', (api) => api.relayers.getTransactionById(relayer, 'tx-1')],
    ['getTransactionByNonce', (api) => api.relayers.getTransactionByNonce(relayer, 1)],
    [
      'replaceTransaction',
      (api) => api.relayers.replaceTransaction(relayer, 'tx-1', { value: 2, to: KEY1.evm }),
    ],
    ['cancelTransaction', (api) => api.relayers.cancelTransaction(relayer, 'tx-1')],
    ['deletePendingTransactions', (api) => api.relayers.deletePendingTransactions(relayer)],
    [
      'rpc',
      (api) => api.relayers.rpc(relayer, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    ],
    ['sign', (api) => api.relayers.sign(relayer, { message: 'hello' })],
    ['signTransaction', (api) => api.relayers.signTransaction(relayer, { transaction: 'AQ==' })],
    [
      'signTypedData',
      (api) => api.relayers.signTypedData(relayer, { domain_separator: '0x00', hash_struct_message: '0x00' }),
    ],
    ['listPlugins', (api) => api.plugins.listPlugins()],
    ['getPlugin', (api) => api.plugins.getPlugin('plugin-1')],
    ['updatePlugin', (api) => api.plugins.updatePlugin('plugin-1', { emit_logs: true })],
    ['callPlugin', (api) => api.plugins.callPlugin('plugin-1', { params: {} })],
    ['callPluginGet', (api) => api.plugins.callPluginGet('plugin-1')],
  ])('%s → 404 "Not Found" (not a route of this service)', async (_method, call) => {
    expect(await refusal(call(sdk()))).toEqual(refused(404, 'Not Found'));
  });
});
