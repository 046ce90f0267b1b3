import type http from 'node:http';
import { LoopbackServer } from './loopback-server';

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/**
 * A hostile JSON-RPC endpoint: every POST is answered with HTTP 200 and a well-formed JSON-RPC
 * answer (the request's id echoed) whose result is a string of `resultBytes` bytes, streamed in
 * 64 KiB chunks as fast as the reader takes them, until it has all or closes the connection. Every
 * other answer declares its length (Content-Length), the others are chunked. Counts calls per
 * method (each call of a JSON-RPC batch) and the bytes it managed to send.
 */
export class StreamingRpc extends LoopbackServer {
  private readonly calls = new Map<string, number>();
  private answers = 0;
  bytesSent = 0;

  constructor(private readonly resultBytes: number) {
    super();
  }

  callCount(method: string): number {
    return this.calls.get(method) ?? 0;
  }

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let request: { id?: unknown; method?: unknown } = {};
      let batch: Array<typeof request> = [];
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof request | typeof batch;
        // A JSON-RPC batch is answered as one call would be: the answer's size is the point.
        batch = Array.isArray(parsed) ? parsed : [parsed];
        request = batch[0] ?? {};
      } catch {
        // Answered all the same: the answer's size is the point.
      }
      for (const call of batch.length > 0 ? batch : [request]) {
        const method = typeof call.method === 'string' ? call.method : '?';
        this.calls.set(method, this.callCount(method) + 1);
      }
      const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(request.id ?? null)},"result":"`);
      const tail = Buffer.from('"}');
      const declared = this.answers++ % 2 === 0;
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(head.length + this.resultBytes + tail.length) } : {}),
      });
      // The reader going away mid-answer is what a capped reader does: not an error here.
      res.on('error', () => undefined);
      let left = this.resultBytes;
      const resume = (): void => {
        while (left > 0 && !res.destroyed) {
          const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
          left -= piece.length;
          this.bytesSent += piece.length;
          if (!res.write(piece)) {
            res.once('drain', resume);
            return;
          }
        }
        if (!res.destroyed) res.end(tail);
      };
      res.write(head);
      resume();
    });
  }
}
