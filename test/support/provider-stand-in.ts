import type http from 'node:http';
import { LoopbackServer } from './loopback-server';
import { waitFor } from './wait';

/** One request as a stand-in received it, with what it breaks of the provider's documented format. */
export interface ProviderRequest {
  readonly method: string;
  /** The request target as sent (path and query). */
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
  /** The provider's rules the request breaks; empty when it is valid. */
  readonly violations: readonly string[];
  /** The status it was answered with, or null while it has not been (a delayed or `never` reply). */
  answeredStatus: number | null;
}

/**
 * A scripted answer to one request in place of the provider's own: an outage (500), a rate limit
 * (429 with Retry-After), a slow answer, none at all. Without a status the provider's own answer is
 * sent, after `delayMs`.
 */
export interface ScriptedReply {
  readonly status?: number;
  /** Seconds, sent as the Retry-After header. */
  readonly retryAfter?: number;
  /** The body, instead of what the provider answers with this status. */
  readonly body?: string;
  readonly delayMs?: number;
  /** No answer: the caller's timeout ends the request. */
  readonly never?: boolean;
}

/** A violation of one recorded request: `index` is the request's place in `received`. */
export interface Violation {
  readonly index: number;
  readonly violation: string;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a stand-in makes of one request: its reading, the provider's answer, what accepting it changes. */
export interface Verdict {
  readonly json: unknown;
  readonly violations: string[];
  readonly answer: Answer;
  /** Applied only when the provider's own answer is sent: a scripted 500 changed nothing there. */
  readonly effect?: () => void;
}

export interface IncomingRequest {
  readonly method: string;
  /** The path without the query. */
  readonly pathname: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * What the Slack and PagerDuty stand-ins share: every request is recorded with the violations of
 * the provider's format found in it, and answered as the provider would unless a scripted reply
 * for its path stands in.
 */
export abstract class ProviderStandIn extends LoopbackServer {
  readonly received: ProviderRequest[] = [];
  private readonly scripts = new Map<string, ScriptedReply[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Every violation found so far, in the order of the requests: a test asserts `[]`. */
  violations(): Violation[] {
    return this.received.flatMap((request, index) =>
      request.violations.map((violation) => ({ index, violation })),
    );
  }

  override async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await super.close();
  }

  /** What the provider makes of the request. */
  protected abstract judge(request: IncomingRequest): Verdict;

  /** The provider's answer with a scripted status and no scripted body. */
  protected abstract scriptedAnswer(status: number): Answer;

  /** The replies for the next requests to `pathname`, in order; afterwards the provider's own. */
  protected scriptPath(pathname: string, replies: ScriptedReply[]): void {
    this.scripts.set(pathname, [...replies]);
  }

  /** Polls until `count` recorded requests match (deadline 15 s). */
  protected waitForRequests(
    what: string,
    matches: (request: ProviderRequest) => boolean,
    count: number,
    timeoutMs: number,
  ): Promise<ProviderRequest[]> {
    const matching = () => this.received.filter(matches);
    return waitFor(`${count} ${what}`, () => matching().length >= count && matching(), {
      timeoutMs,
      intervalMs: 20,
      detail: () => `received ${matching().length} of ${count} ${what}`,
    });
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const pathname = new URL(path, 'http://127.0.0.1').pathname;
      const body = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const verdict = this.judge({ method, pathname, headers: req.headers, body });
      const request: ProviderRequest = {
        method,
        path,
        headers: req.headers,
        body,
        json: verdict.json,
        violations: verdict.violations,
        answeredStatus: null,
      };
      this.received.push(request);
      const scripted = this.scripts.get(pathname)?.shift() ?? {};
      // The socket stays open until the caller gives up or close() destroys it.
      if (scripted.never) return;
      const own = scripted.status === undefined;
      const answer = this.scripted(scripted, own ? verdict.answer : this.scriptedAnswer(scripted.status));
      const send = () => {
        if (own) verdict.effect?.();
        res.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers });
        res.end(answer.body);
        request.answeredStatus = answer.status;
      };
      if (!scripted.delayMs) {
        send();
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send();
      }, scripted.delayMs);
      this.timers.add(timer);
    });
  }

  private scripted(reply: ScriptedReply, answer: Answer): Answer {
    const headers = { ...answer.headers };
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    return { ...answer, body: reply.body ?? answer.body, headers };
  }
}
