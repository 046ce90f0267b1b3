import { isAddress } from '@solana/kit';
import { JsonRpcServer, type MethodOutcome } from './json-rpc-server';

/**
 * A Solana JSON-RPC node for the tests, answering as https://solana.com/docs/rpc/http says:
 * - `getHealth`: `"ok"`, or when unhealthy the error `-32005` (`Node is unhealthy`, or `Node is
 *   behind by N slots` with `data.numSlotsBehind`);
 * - `getBalance(pubkey, config?)`: `{context: {slot, apiVersion}, value: <lamports, u64>}`, 0 for an
 *   account it does not know, `-32602` for a pubkey that is not base58 of 32 bytes.
 * Other methods: `-32601 Method not found`.
 */
export class SolanaRpc {
  readonly rpc: JsonRpcServer;
  private readonly balances = new Map<string, bigint>();
  private unhealthy: { numSlotsBehind: number | null } | null = null;
  private slot = 340_000_000n;

  constructor() {
    this.rpc = new JsonRpcServer({
      getHealth: () => this.getHealth(),
      getBalance: (params) => this.getBalance(params),
    });
  }

  async start(): Promise<this> {
    await this.rpc.start();
    return this;
  }

  url(path = '/'): string {
    return this.rpc.url(path);
  }

  /** Sets an account's balance in lamports (every digit is answered, even above 2^53). */
  setBalance(address: string, lamports: bigint): void {
    this.balances.set(address, lamports);
  }

  /** Makes getHealth fail: generically, or as a node `numSlotsBehind` slots behind the cluster. */
  setUnhealthy(numSlotsBehind: number | null = null): void {
    this.unhealthy = { numSlotsBehind };
  }

  setHealthy(): void {
    this.unhealthy = null;
  }

  /** Makes every request fail with this HTTP status (null: answer again). */
  setHttpStatus(status: number | null): void {
    this.rpc.httpStatus = status;
  }

  calls(method: 'getHealth' | 'getBalance'): number {
    return this.rpc.callCount(method);
  }

  close(): Promise<void> {
    return this.rpc.close();
  }

  private getHealth(): MethodOutcome {
    if (this.unhealthy === null) return { result: 'ok' };
    const behind = this.unhealthy.numSlotsBehind;
    return {
      error:
        behind === null
          ? { code: -32005, message: 'Node is unhealthy', data: {} }
          : { code: -32005, message: `Node is behind by ${behind} slots`, data: { numSlotsBehind: behind } },
    };
  }

  private getBalance(params: unknown): MethodOutcome {
    const [pubkey] = Array.isArray(params) ? (params as unknown[]) : [];
    if (typeof pubkey !== 'string' || !isAddress(pubkey)) {
      return { error: { code: -32602, message: 'Invalid param: Invalid' } };
    }
    this.slot += 1n;
    return {
      result: {
        context: { apiVersion: '2.2.7', slot: this.slot },
        value: this.balances.get(pubkey) ?? 0n,
      },
    };
  }
}
