import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { loadUndici, PolicyAgent, policyRefusal } from '../common/security/policy-agent';
import { DnsResolver } from '../common/security/dns-resolver';
import { withoutUrlSecrets } from '../common/security/url-masking';
import { checkUrl } from '../common/security/url-policy';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { excerpt, findCause, hostOf, MAX_ANSWER_BYTES } from './network-checks';
import { AnswerTooLargeError, RefusedUrlError } from './relayer-health.errors';

/** docs/reference/relayer-health.md#1-the-checks; answers are read here, so that no client reads more. */
@Injectable()
export class RpcFetch implements OnApplicationShutdown {
  private readonly agent: PolicyAgent;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    resolver: DnsResolver,
  ) {
    this.agent = new PolicyAgent(config.rpcUrlPolicy, resolver, { connections: 8 });
  }

  /** `stop` (a request's deadline) ends the call too, and refuses any call made after it. */
  readonly fetch = async (
    url: string,
    body: string,
    stop?: AbortSignal,
  ): Promise<{ status: number; text: string }> => {
    stop?.throwIfAborted();
    const refusal = checkUrl(url, this.config.rpcUrlPolicy);
    if (refusal !== null) throw new RefusedUrlError(refusal);
    const timeout = AbortSignal.timeout(this.config.healthChecks.rpcTimeoutMs);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    const [{ fetch: undiciFetch }, dispatcher] = await Promise.all([loadUndici(), this.agent.get()]);
    // The signal also ends the body's stream: a slow drip is bounded by RPC_TIMEOUT_MS as a whole.
    const { target, authorization } = basicAuthOf(url);
    const response = await undiciFetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body,
      redirect: 'error',
      signal,
      dispatcher,
    });
    const bytes = await readAtMost(response, MAX_ANSWER_BYTES);
    return { status: response.status, text: new TextDecoder().decode(bytes) };
  };

  describeFailure(url: string, error: unknown): string {
    const host = hostOf(url);
    if (error instanceof AnswerTooLargeError) return `${host}: ${error.message}`;
    // undici wraps what the agent threw: the URL policy's refusal is found among the causes.
    const refusal = findCause(error, (e) => (e instanceof RefusedUrlError ? e : policyRefusal(e)));
    if (refusal) return `${host}: refused by the URL policy (${refusal.message})`;
    const status = findCause(error, hasStatus); // HttpStatusError's too
    if (status) return `${host}: HTTP ${status.status}`;
    if (findCause(error, (e) => (isTimeout(e) ? e : null))) return `${host}: timed out`;
    const rpcError = findCause(error, jsonRpcError);
    if (rpcError)
      return `${host}: answered JSON-RPC error ${rpcError.code} (${excerpt(withoutUrlSecrets(rpcError.message, url), 160)})`;
    const code = findCause(error, (e) => (hasCode(e) ? e : null));
    if (code) return `${host}: network error (${code.code})`;
    return `${host}: the answer was not a valid RPC response`;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }
}

async function readAtMost(
  response: { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null },
  limit: number,
): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length')) > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new AnswerTooLargeError();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A URL's user name and password as an HTTP Basic `Authorization` header, and the URL without them
 * (fetch refuses a URL with credentials): docs/reference/relayers.md#4-policies-and-rpc-urls.
 */
function basicAuthOf(url: string): { target: string; authorization: string | null } {
  const parsed = URL.parse(url);
  if (parsed === null || (parsed.username === '' && parsed.password === ''))
    return { target: url, authorization: null };
  const credentials = `${safeDecode(parsed.username)}:${safeDecode(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { target: parsed.href, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function hasStatus(error: unknown): { status: number } | null {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 300 ? { status } : null;
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown }).name;
  return (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    (error as { code?: unknown }).code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}

function jsonRpcError(error: unknown): { code: number; message: string } | null {
  if (typeof error !== 'object' || error === null || error instanceof Error) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return Number.isInteger(code) && typeof message === 'string' ? { code: code as number, message } : null;
}

function hasCode(error: unknown): error is { code: string } {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code);
}
