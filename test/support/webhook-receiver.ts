import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait';

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly json: { id: string; event: string; payload: Record<string, unknown>; timestamp: string };
  /** When the receiver answered it (Date.now()), or null while it has not. */
  answeredAt: number | null;
  /** The status it was answered with, or null while it has not been. */
  answeredStatus: number | null;
}

/**
 * What the receiver answers to one request: a status, after an optional delay (never: no answer;
 * hold: no answer until the test calls `release`).
 */
export interface Reply {
  readonly status?: number;
  readonly delayMs?: number;
  readonly never?: boolean;
  readonly hold?: boolean;
}

/**
 * A real HTTP receiver on a loopback port, as an operator would run one: records every request and
 * answers each path with a scripted list of replies (then 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, Reply[]>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private readonly hanging = new Set<http.ServerResponse>();
  private readonly held: { path: string; answer: () => void }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  port = 0;
  /** What every request not scripted otherwise is answered with. */
  defaultStatus = 200;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The replies for the next requests to `path`, in order; afterwards 200. */
  script(path: string, replies: Reply[]): void {
    this.scripts.set(path, [...replies]);
  }

  /** Answers the requests to `path` held so far (a `hold` reply) with their status; how many it answered. */
  release(path: string): number {
    const now = this.held.filter((h) => h.path === path);
    for (const h of now) {
      this.held.splice(this.held.indexOf(h), 1);
      h.answer();
    }
    return now.length;
  }

  to(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Polls until `count` requests reached `path` (deadline 15 s). */
  waitFor(path: string, count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    return waitFor(`${count} webhooks at ${path}`, () => this.to(path).length >= count && this.to(path), {
      timeoutMs,
      intervalMs: 20,
      detail: () => `${path} received ${this.to(path).length} of ${count}`,
    });
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const received: ReceivedWebhook = {
        path,
        headers: req.headers,
        body,
        json: JSON.parse(body) as ReceivedWebhook['json'],
        answeredAt: null,
        answeredStatus: null,
      };
      this.received.push(received);
      const reply = this.scripts.get(path)?.shift() ?? {};
      if (reply.never) {
        this.hanging.add(res);
        return;
      }
      const answer = () => {
        res.statusCode = reply.status ?? this.defaultStatus;
        res.end('ok');
        received.answeredAt = Date.now();
        received.answeredStatus = res.statusCode;
      };
      if (reply.hold) {
        this.hanging.add(res);
        this.held.push({
          path,
          answer: () => {
            this.hanging.delete(res);
            answer();
          },
        });
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        answer();
      }, reply.delayMs ?? 0);
      this.timers.add(timer);
    });
  }
}

/** How a receiver verifies both signatures (the README shows the same few lines). */
export function verifySignatures(
  received: ReceivedWebhook,
  key: string,
): { signature: boolean; signature256: boolean; t: number } {
  const expected = createHmac('sha256', key).update(received.body).digest('base64');
  const given = String(received.headers['x-signature'] ?? '');
  const [tPart, v1Part] = String(received.headers['x-signature-256'] ?? '').split(',');
  const t = Number(tPart?.slice(2));
  const v1 = createHmac('sha256', key).update(`${t}.${received.body}`).digest('hex');
  const equal = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  return { signature: equal(given, expected), signature256: equal(v1Part?.slice(3) ?? '', v1), t };
}
