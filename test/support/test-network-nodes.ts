import { EvmRpc } from './evm-rpc';
import { SolanaRpc } from './solana-rpc';
import { StellarRpc } from './stellar-rpc';
import { TEST_NETWORKS } from './test-catalogue';

type NetworkType = 'evm' | 'solana' | 'stellar';

/**
 * A local node for each network of the test catalogue (TEST_NETWORKS), whose balances the test sets: a
 * relayer given `rpcUrls(type, network)` as its `custom_rpc_urls` is checked against it (POST
 * /api/v1/relayers/{id}/check), so that its balance is written by the health checks themselves.
 */
export class TestNetworkNodes {
  private readonly evm = new Map<string, EvmRpc>();
  /** Solana's checks ask no network identity: one node serves both clusters. */
  readonly solana = new SolanaRpc();
  private readonly stellar = new Map<string, StellarRpc>();

  constructor() {
    for (const network of TEST_NETWORKS) {
      if ('chain_id' in network) this.evm.set(network.network, new EvmRpc(network.chain_id));
      if ('passphrase' in network && network.passphrase !== undefined) {
        const node = new StellarRpc();
        node.passphrase = network.passphrase;
        this.stellar.set(network.network, node);
      }
    }
  }

  async start(): Promise<void> {
    await Promise.all(
      [...this.evm.values(), this.solana, ...this.stellar.values()].map((node) => node.start()),
    );
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.evm.values(), this.solana, ...this.stellar.values()].map((node) => node.close()),
    );
  }

  /** The `custom_rpc_urls` of a relayer of this network: its node alone. */
  rpcUrls(type: NetworkType, network: string): Array<{ url: string; weight: number }> {
    return [{ url: this.node(type, network).url('/'), weight: 100 }];
  }

  /** What the next check of the account on this network reads, in the network's base unit. */
  setBalance(type: NetworkType, network: string, address: string, balance: bigint): void {
    if (type === 'evm') this.node('evm', network).setBalance(address, balance);
    else if (type === 'solana') this.solana.setBalance(address, balance);
    else this.node('stellar', network).setAccount(address, { balance, sequence: 1n });
  }

  /** Every request to the node fails with this HTTP status (null: it answers again). */
  setHttpStatus(type: NetworkType, network: string, status: number | null): void {
    this.node(type, network).setHttpStatus(status);
  }

  private node(type: 'evm', network: string): EvmRpc;
  private node(type: 'stellar', network: string): StellarRpc;
  private node(type: NetworkType, network: string): EvmRpc | SolanaRpc | StellarRpc;
  private node(type: NetworkType, network: string): EvmRpc | SolanaRpc | StellarRpc {
    const node =
      type === 'evm' ? this.evm.get(network) : type === 'stellar' ? this.stellar.get(network) : this.solana;
    if (!node) throw new Error(`no test node for ${type}:${network}`);
    return node;
  }
}
