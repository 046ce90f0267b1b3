import type { KMSClientConfig } from '@aws-sdk/client-kms';
import type { KeyClientOptions } from '@azure/keyvault-keys';
import { loadUndici, policyRefusal } from '../../common/security/policy-agent';
import type { KeyServiceHttp } from './key-service-http';

/** Every answer of a key service is read at most this far (docs/reference/hardening.md#2-key-services). */
export const ANSWER_LIMIT_BYTES = 64 * 1024;
/** For everything one signer's addresses need: logins, challenges, tokens and reads together. */
export const DEADLINE_MS = 10_000;

/** `message` says what went wrong in words a response may carry: it never quotes a secret. */
export class KeyServiceCallError extends Error {}

export interface Outbound {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  readonly signal?: AbortSignal;
}

export interface Answer {
  readonly status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

type AzureHttpClient = NonNullable<KeyClientOptions['httpClient']>;
type AzureRequest = Parameters<AzureHttpClient['sendRequest']>[0];
type AzureResponse = Awaited<ReturnType<AzureHttpClient['sendRequest']>>;
type AwsHandler = Extract<NonNullable<KMSClientConfig['requestHandler']>, { handle: unknown }>;
/** What the AWS SDK hands its request handler (its HttpRequest). */
interface AwsRequest {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
  readonly path: string;
  readonly method: string;
  readonly query?: Readonly<Record<string, string | null | readonly (string | null)[]>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}
type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The calls made for one signer: what failed below an SDK is kept here, since the SDK's error hides it. */
export class KeyServiceSession {
  failure: KeyServiceCallError | null = null;
  private readonly deadline = AbortSignal.timeout(DEADLINE_MS);

  constructor(private readonly http: KeyServiceHttp) {}

  async send(target: URL, outbound: Outbound, identity = false): Promise<Answer> {
    const { request } = await loadUndici();
    const signal = outbound.signal ? AbortSignal.any([this.deadline, outbound.signal]) : this.deadline;
    // `user:pass@` in a key-service URL is HTTP basic authentication, as curl reads it.
    const url = new URL(target);
    const headers: Record<string, string> = { ...outbound.headers };
    if (url.username !== '' || url.password !== '') {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.authorization ??= `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    try {
      const response = await request(url, {
        method: outbound.method as 'GET',
        headers,
        body: outbound.body,
        dispatcher: await this.http.dispatcher(url, identity),
        signal,
      });
      const declared = Number(response.headers['content-length']);
      if (declared > ANSWER_LIMIT_BYTES) {
        response.body.destroy();
        throw this.fail('answer larger than 64 KiB');
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > ANSWER_LIMIT_BYTES) {
          response.body.destroy();
          throw this.fail('answer larger than 64 KiB');
        }
        chunks.push(chunk);
      }
      const answered: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) answered[name.toLowerCase()] = [value].flat().join(', ');
      }
      return { status: response.statusCode, headers: answered, body: Buffer.concat(chunks) };
    } catch (error) {
      if (error instanceof KeyServiceCallError) throw error;
      const refused = policyRefusal(error);
      if (refused) throw this.fail(refused.message);
      if (this.deadline.aborted) throw this.fail(`no answer within ${DEADLINE_MS / 1000} s`);
      throw error;
    }
  }

  private fail(reason: string): KeyServiceCallError {
    this.failure ??= new KeyServiceCallError(reason);
    return this.failure;
  }

  /** For the Azure SDK's pipeline (`httpClient`): the key vault's client, or an identity's. */
  azureHttpClient(identity = false): AzureHttpClient {
    return {
      sendRequest: async (request: AzureRequest): Promise<AzureResponse> => {
        const answer = await this.send(
          new URL(request.url),
          {
            method: request.method,
            headers: request.headers.toJSON(),
            body: requestBody(request.body),
            signal: request.abortSignal as AbortSignal | undefined,
          },
          identity,
        );
        return {
          request,
          status: answer.status,
          headers: new AnswerHeaders(answer.headers),
          bodyAsText: answer.body.toString('utf8'),
        };
      },
    };
  }

  /** For the AWS SDK (`requestHandler`). */
  awsRequestHandler(): AwsHandler {
    return {
      metadata: { handlerProtocol: 'http/1.1' },
      handle: async (request: AwsRequest, options?: { abortSignal?: AbortSignal }) => {
        const port = request.port ? `:${request.port}` : '';
        const url = new URL(`${request.protocol}//${request.hostname}${port}${request.path}`);
        for (const [name, value] of Object.entries(request.query ?? {})) {
          for (const item of [value ?? ''].flat()) url.searchParams.append(name, item ?? '');
        }
        const answer = await this.send(url, {
          method: request.method,
          headers: request.headers,
          body: requestBody(request.body),
          signal: options?.abortSignal,
        });
        return { response: { statusCode: answer.status, headers: answer.headers, body: answer.body } };
      },
    } as AwsHandler;
  }

  /** For Google's REST transport (gaxios' `fetchImplementation`). */
  readonly fetch: Fetch = async (input, init = {}) => {
    const url = input instanceof Request ? input.url : input;
    const answer = await this.send(new URL(url), {
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers)),
      body: requestBody(init.body),
      signal: init.signal ?? undefined,
    });
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
  };
}

/** The SDKs' calls to a key service send text or bytes; anything else is not one of theirs. */
function requestBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new KeyServiceCallError('a request body of an unexpected kind');
}

/** Azure's HttpHeaders over an answer's headers (names case-insensitive). */
class AnswerHeaders implements Iterable<[string, string]> {
  private readonly map: Map<string, string>;

  constructor(headers: Readonly<Record<string, string>>) {
    this.map = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  }

  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  set(name: string, value: string | number | boolean): void {
    this.map.set(name.toLowerCase(), String(value));
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }

  toJSON(): Record<string, string> {
    return Object.fromEntries(this.map);
  }

  [Symbol.iterator](): Iterator<[string, string]> {
    return this.map.entries();
  }
}
