import { fileSigner } from '../factories';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Anvil } from './anvil';
import { writeConfigFile } from './test-catalogue';

/** A JSON-RPC proxy in front of anvil that counts, per relayer address, checks made and checks at once. */
export class CountingProxy {
  readonly checks = new Map<string, number>();
  readonly inFlight = new Map<string, number>();
  maxAtOnce = 0;
  /** HTTP requests received, and calls per method (a JSON-RPC batch is one request of several calls). */
  requests = 0;
  readonly calls = new Map<string, number>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void this.forward(Buffer.concat(chunks).toString(), res));
  });
  port = 0;

  constructor(private readonly upstream: string) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async forward(body: string, res: http.ServerResponse): Promise<void> {
    const parsed = JSON.parse(body) as Call | Call[];
    this.requests += 1;
    for (const { method } of Array.isArray(parsed) ? parsed : [parsed]) {
      this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    }
    // One eth_getTransactionCount per check of a relayer, naming its address; a JSON-RPC batch holds several.
    const addresses = (Array.isArray(parsed) ? parsed : [parsed])
      .filter((call) => call.method === 'eth_getTransactionCount')
      .map((call) => String(call.params[0]).toLowerCase());
    for (const address of addresses) {
      this.checks.set(address, (this.checks.get(address) ?? 0) + 1);
      const now = (this.inFlight.get(address) ?? 0) + 1;
      this.inFlight.set(address, now);
      this.maxAtOnce = Math.max(this.maxAtOnce, now);
    }
    if (addresses.length > 0) await new Promise((resolve) => setTimeout(resolve, 30)); // widen the window two checkers would share
    const upstream = await fetch(this.upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await upstream.text();
    for (const address of addresses) this.inFlight.set(address, (this.inFlight.get(address) ?? 1) - 1);
    res.setHeader('content-type', 'application/json');
    res.end(text);
  }
}

interface Call {
  method: string;
  params: unknown[];
}

/**
 * A catalogue with one EVM network, `anvil`, whose only RPC URL is `proxy`, and `ids` as signers with
 * random keys (registered as secrets); returns its path.
 */
export function writeProxiedAnvilCatalogue(proxy: CountingProxy, ids: string[]): string {
  const file = writeConfigFile({
    networks: [
      {
        type: 'evm',
        network: 'anvil',
        chain_id: Anvil.CHAIN_ID,
        rpc_urls: [`http://127.0.0.1:${proxy.port}`],
      },
    ],
    signers: ids.map((id) => fileSigner(id)),
  });
  return file;
}
