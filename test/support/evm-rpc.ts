import { JsonRpcServer } from './json-rpc-server';

/**
 * An EVM JSON-RPC node for the tests whose balances the test sets: `eth_chainId` (its chain id),
 * `eth_getTransactionCount` (0x0) and `eth_getBalance` (the balance set for the address, else 0), as
 * hex quantities. Counts each address's balance reads: one per check.
 */
export class EvmRpc {
  readonly rpc: JsonRpcServer;
  private readonly balances = new Map<string, bigint>();
  private readonly reads = new Map<string, number>();

  constructor(readonly chainId = 31337) {
    this.rpc = new JsonRpcServer({
      eth_chainId: () => ({ result: `0x${this.chainId.toString(16)}` }),
      eth_getTransactionCount: () => ({ result: '0x0' }),
      eth_getBalance: (params) => {
        const address = String((params as unknown[])[0]).toLowerCase();
        this.reads.set(address, this.balanceReads(address) + 1);
        return { result: `0x${(this.balances.get(address) ?? 0n).toString(16)}` };
      },
    });
  }

  async start(): Promise<this> {
    await this.rpc.start();
    return this;
  }

  url(path = '/'): string {
    return this.rpc.url(path);
  }

  setBalance(address: string, wei: bigint): void {
    this.balances.set(address.toLowerCase(), wei);
  }

  /** Makes every request fail with this HTTP status (null: answer again). */
  setHttpStatus(status: number | null): void {
    this.rpc.httpStatus = status;
  }

  /** How many checks read the address's balance so far. */
  balanceReads(address: string): number {
    return this.reads.get(address.toLowerCase()) ?? 0;
  }

  close(): Promise<void> {
    return this.rpc.close();
  }
}
