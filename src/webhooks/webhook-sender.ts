import { Inject, Injectable } from '@nestjs/common';
import { loadUndici, PolicyAgent, policyRefusal } from '../common/security/policy-agent';
import { DnsResolver } from '../common/security/dns-resolver';
import { checkUrl } from '../common/security/url-policy';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { PACKAGE_VERSION } from '../config/package-root';

const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = `relayer-service/${PACKAGE_VERSION}`;
const TIMEOUT_NAMES = ['TimeoutError', 'AbortError'];
const TIMEOUT_CODES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'];

export interface AttemptResult {
  readonly delivered: boolean;
  readonly retryable: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/**
 * docs/reference/webhooks.md#2-delivery; the URL policy applies again to the addresses connected to.
 * Replaceable (docs/reference/extension-events.md#3-replaceable-parts): `send` resolves to the attempt's
 * result and never rejects; `close` is called once when the service stops.
 */
@Injectable()
export class WebhookSender {
  private readonly agent: PolicyAgent;

  /** @internal Nest injects it. */
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    resolver: DnsResolver,
  ) {
    // Connecting is part of the attempt's WEBHOOK_TIMEOUT_MS: an attempt never outlives its lease.
    this.agent = new PolicyAgent(config.webhookUrlPolicy, resolver, {
      connectTimeoutMs: config.webhooks.timeoutMs,
    });
  }

  async send(url: string, body: string, headers: Record<string, string>): Promise<AttemptResult> {
    const started = performance.now();
    const finish = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
      ...result,
      durationMs: Math.round(performance.now() - started),
    });
    const refusal = checkUrl(url, this.config.webhookUrlPolicy);
    if (refusal !== null) {
      return finish({ delivered: false, retryable: false, statusCode: null, error: `url ${refusal}` });
    }
    try {
      const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.agent.get()]);
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...headers },
        body,
        headersTimeout: this.config.webhooks.timeoutMs,
        bodyTimeout: this.config.webhooks.timeoutMs,
        signal: AbortSignal.timeout(this.config.webhooks.timeoutMs),
      });
      await drain(response.body);
      const status = response.statusCode;
      const delivered = status >= 200 && status < 300;
      return finish({
        delivered,
        retryable: !delivered && (status === 408 || status === 429 || status >= 500),
        statusCode: status,
        error: delivered ? null : `HTTP ${status}`,
      });
    } catch (error) {
      return finish({ delivered: false, ...describeFailure(error), statusCode: null });
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

async function drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read >= MAX_RESPONSE_BYTES) {
      body.destroy();
      return;
    }
  }
}

function describeFailure(error: unknown): { retryable: boolean; error: string } {
  const refusal = policyRefusal(error);
  if (refusal) return { retryable: false, error: refusal.message };
  const cause = (error as { cause?: unknown }).cause ?? error;
  const name = (error as { name?: string }).name ?? '';
  const code = (cause as { code?: string }).code ?? (error as { code?: string }).code;
  const timedOut = TIMEOUT_NAMES.includes(name) || TIMEOUT_CODES.includes(code ?? '');
  if (timedOut) return { retryable: true, error: 'timed out' };
  return { retryable: true, error: `network error${code ? ` (${code})` : ''}` };
}
