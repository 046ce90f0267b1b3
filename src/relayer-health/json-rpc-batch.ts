import { parseJson } from '../common/http/json';
import { HttpStatusError } from './relayer-health.errors';

/** RpcFetch.fetch: POSTs a JSON body, answers its status and text. */
export type RpcPost = (url: string, body: string) => Promise<{ status: number; text: string }>;

/** Calls per HTTP request: many public providers refuse larger JSON-RPC batches. */
export const MAX_BATCH_CALLS = 100;

interface Waiting {
  readonly method: string;
  readonly params: unknown;
  readonly answers: Array<{ resolve: (result: unknown) => void; reject: (error: unknown) => void }>;
}

/**
 * The JSON-RPC client of the health checks (docs/reference/relayer-health.md#26-rounds-in-batches). The calls
 * made to one URL in one turn of the event loop travel in one request, a JSON-RPC batch, and a call
 * made twice (the same method and parameters) is sent once. A lone call is sent as a plain request;
 * an endpoint that answers a batch with anything but an array gets the calls one by one instead.
 */
export class JsonRpcBatch {
  private readonly waiting = new Map<string, Map<string, Waiting>>();

  constructor(private readonly post: RpcPost) {}

  /** The call's result; an error object in the answer is thrown as it came. */
  readonly call = (url: string, method: string, params?: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      let calls = this.waiting.get(url);
      if (!calls) {
        calls = new Map();
        this.waiting.set(url, calls);
        setImmediate(() => void this.send(url));
      }
      const key = JSON.stringify([method, params]);
      const waiting = calls.get(key) ?? { method, params, answers: [] };
      waiting.answers.push({ resolve, reject });
      calls.set(key, waiting);
    });

  private async send(url: string): Promise<void> {
    const calls = [...(this.waiting.get(url)?.values() ?? [])];
    this.waiting.delete(url);
    const chunks: Waiting[][] = [];
    for (let start = 0; start < calls.length; start += MAX_BATCH_CALLS) {
      chunks.push(calls.slice(start, start + MAX_BATCH_CALLS));
    }
    await Promise.all(
      chunks.map((chunk) => (chunk.length === 1 ? this.single(url, chunk[0]) : this.batch(url, chunk))),
    );
  }

  private async single(url: string, waiting: Waiting): Promise<void> {
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: waiting.method, params: waiting.params });
      const answer = await this.post(url, body);
      if (answer.status >= 300) throw new HttpStatusError(answer.status);
      // Exact integers: beyond 2^53 they come back as bigints (a u64 of lamports).
      settle(waiting, parseJson(answer.text));
    } catch (error) {
      for (const { reject } of waiting.answers) reject(error);
    }
  }

  private async batch(url: string, chunk: readonly Waiting[]): Promise<void> {
    let answers: unknown;
    try {
      const body = JSON.stringify(
        chunk.map(({ method, params }, id) => ({ jsonrpc: '2.0', id, method, params })),
      );
      const answer = await this.post(url, body);
      if (answer.status >= 300) throw new HttpStatusError(answer.status);
      answers = parseJson(answer.text);
    } catch (error) {
      for (const { reject } of chunk.flatMap((waiting) => waiting.answers)) reject(error);
      return;
    }
    if (!Array.isArray(answers)) {
      await Promise.all(chunk.map((waiting) => this.single(url, waiting)));
      return;
    }
    const byId = new Map<unknown, unknown>();
    for (const answer of answers as unknown[]) {
      if (typeof answer === 'object' && answer !== null) byId.set((answer as { id?: unknown }).id, answer);
    }
    chunk.forEach((waiting, id) => {
      const answer = byId.get(id);
      if (answer === undefined) {
        for (const { reject } of waiting.answers) reject(new TypeError('no answer to the call in the batch'));
      } else {
        settle(waiting, answer);
      }
    });
  }
}

function settle(waiting: Waiting, answer: unknown): void {
  try {
    const parsed = answer as { error?: unknown; result?: unknown };
    if ('error' in parsed) throw parsed.error;
    for (const { resolve } of waiting.answers) resolve(parsed.result);
  } catch (error) {
    for (const { reject } of waiting.answers) reject(error);
  }
}
