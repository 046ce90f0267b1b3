import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP server of a test on a free loopback port: what every local endpoint the tests start
 * (RPC nodes, hostile endpoints) shares. A subclass answers in `handle`.
 */
export abstract class LoopbackServer {
  protected readonly server = http.createServer((req, res) => this.handle(req, res));
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The server's URL, with an optional path (RPC providers put API keys there). */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void;
}
