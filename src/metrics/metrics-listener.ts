import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorAnswer } from '../common/http/problem-details';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { MetricsService } from './metrics.service';

/** METRICS_PORT's listener without a key, for a scraper inside the pod (docs/reference/running.md#4-metrics). */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MetricsListener');
  private server: Server | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  address(): AddressInfo | null {
    return (this.server?.address() as AddressInfo | null | undefined) ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.config.metrics;
    if (port === null) return;
    const server = createServer((req, res) => void this.answer(req, res));
    server.listen(port, host);
    await once(server, 'listening');
    this.server = server;
    const { address, port: bound } = server.address() as AddressInfo;
    this.logger.log(`metrics without a key on http://${address}:${bound}/metrics`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // A scrape cut short is taken again at the scraper's next interval: never worth a wait.
      server.closeAllConnections();
    });
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      sendError(req, res, 404, 'Not Found');
      return;
    }
    try {
      // Outside any request: no key, so no scope (every metric).
      send(res, 200, this.metrics.registry.contentType, await this.metrics.scrape());
    } catch (error) {
      this.logger.error({ err: error }, 'collecting the metrics failed');
      sendError(req, res, 500, 'Internal Server Error');
    }
  }
}

/** The envelope, or problem details when asked for (docs/reference/envelope-and-errors.md#4-problem-details). */
function sendError(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const answer = errorAnswer(req.headers.accept, req.url, { status, message });
  res.setHeader('Vary', 'Accept');
  send(res, status, `${answer.contentType}; charset=utf-8`, JSON.stringify(answer.body));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
