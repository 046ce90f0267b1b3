import type http from 'node:http';
import { LoopbackServer } from './loopback-server';

/** A JSON-RPC 2.0 error object (https://www.jsonrpc.org/specification#error_object). */
export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What a method handler gives back: a result, or an error object the server answers instead. */
export type MethodOutcome = { result: unknown } | { error: JsonRpcError };

/** What a handler may read of the HTTP request that carried the call. */
export interface RpcRequest {
  /** The request target as it arrived (path and query, percent-escapes as sent). */
  readonly url: string;
}

export type MethodHandler = (params: unknown, request: RpcRequest) => MethodOutcome;

/** The codes of the JSON-RPC 2.0 specification. */
export const JSON_RPC = {
  parseError: { code: -32700, message: 'Parse error' },
  invalidRequest: { code: -32600, message: 'Invalid Request' },
  methodNotFound: { code: -32601, message: 'Method not found' },
} as const;

/**
 * A JSON-RPC 2.0 server over node:http on a free loopback port, as the RPC nodes the service checks
 * are: POST of one request or a batch, answered with HTTP 200 and a JSON-RPC response (errors
 * included). Counts the calls per method; `failMethod` answers a method with an error, `httpStatus`
 * makes every request fail at the HTTP level.
 */
export class JsonRpcServer extends LoopbackServer {
  private readonly calls = new Map<string, number>();
  /** When set, every request is answered with this HTTP status and no JSON-RPC body. */
  httpStatus: number | null = null;
  /** How long each answer is held before it is sent (a slow node). */
  answerDelayMs = 0;
  /** Requests received, answered or not yet (calls per method count answered ones). */
  received = 0;
  private readonly failures = new Map<string, JsonRpcError>();
  /** When set, a request without exactly this `Authorization` header is answered HTTP 401. */
  requiredAuthorization: string | null = null;
  /** The `Authorization` header of each request received (undefined: none), in order. */
  readonly authorizations: Array<string | undefined> = [];

  constructor(private readonly methods: Readonly<Record<string, MethodHandler>>) {
    super();
  }

  /** How many times `method` was called since the start or the last reset. */
  callCount(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  /** Answers every call of `method` with this JSON-RPC error (null: answer it normally again). */
  failMethod(method: string, error: JsonRpcError | null): void {
    if (error === null) this.failures.delete(method);
    else this.failures.set(method, error);
  }

  resetCallCounts(): void {
    this.calls.clear();
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.received += 1;
      this.authorizations.push(req.headers.authorization);
      if (this.answerDelayMs > 0) setTimeout(() => this.reply(req, res, chunks), this.answerDelayMs);
      else this.reply(req, res, chunks);
    });
  }

  private reply(req: http.IncomingMessage, res: http.ServerResponse, chunks: Buffer[]): void {
    if (this.httpStatus !== null) {
      res.writeHead(this.httpStatus, { 'content-type': 'text/plain' }).end('unavailable');
      return;
    }
    if (this.requiredAuthorization !== null && req.headers.authorization !== this.requiredAuthorization) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="rpc"' }).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      this.send(res, { jsonrpc: '2.0', error: JSON_RPC.parseError, id: null });
      return;
    }
    if (Array.isArray(body)) {
      if (body.length === 0) {
        this.send(res, { jsonrpc: '2.0', error: JSON_RPC.invalidRequest, id: null });
        return;
      }
      this.send(
        res,
        body.map((one) => this.answer(one, req)),
      );
      return;
    }
    this.send(res, this.answer(body, req));
  }

  private answer(request: unknown, req: http.IncomingMessage): object {
    const { jsonrpc, method, params, id } = (request ?? {}) as Record<string, unknown>;
    const replyId = typeof id === 'string' || typeof id === 'number' ? id : null;
    if (jsonrpc !== '2.0' || typeof method !== 'string') {
      return { jsonrpc: '2.0', error: JSON_RPC.invalidRequest, id: replyId };
    }
    this.calls.set(method, this.callCount(method) + 1);
    const handler = Object.hasOwn(this.methods, method) ? this.methods[method] : undefined;
    const failure = this.failures.get(method);
    const outcome = failure
      ? { error: failure }
      : handler
        ? handler(params, { url: req.url ?? '' })
        : { error: JSON_RPC.methodNotFound };
    return 'error' in outcome
      ? { jsonrpc: '2.0', error: outcome.error, id: replyId }
      : { jsonrpc: '2.0', result: outcome.result, id: replyId };
  }

  private send(res: http.ServerResponse, body: unknown): void {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify(body, (_key, value: unknown) =>
          typeof value === 'bigint' ? RAW(value) : value,
        ).replace(RAW_PATTERN, '$1'),
      );
  }
}

// JSON numbers of every digit: bigints are written as marked strings, then unquoted.
const RAW_MARK = '\u0000int:';
const RAW = (value: bigint): string => `${RAW_MARK}${value}`;
const RAW_PATTERN = /"\\u0000int:(-?\d+)"/g;
