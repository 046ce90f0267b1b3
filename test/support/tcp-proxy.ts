import net from 'node:net';

/**
 * A TCP proxy of the test's own between the service and a server (MariaDB, Redis), so an
 * outage can be simulated without touching the machine's servers. cut() drops every open
 * connection and resets new ones at once; restore() lets traffic through again.
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private open = true;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  cut(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.open = true;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (!this.open) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
