import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
}

/**
 * Sends a request byte for byte (repeated headers, chunked bodies, invalid bytes) where
 * supertest would normalise it, and reads one response. Fails naming the request when the
 * server has not answered and closed within timeoutMs (15 s unless given).
 */
export function rawRequest(
  port: number,
  opts: {
    method: string;
    path: string;
    headers?: Array<[string, string | Buffer]>;
    body?: string | Buffer;
    chunked?: boolean;
    timeoutMs?: number;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const timeoutMs = opts.timeoutMs ?? 15_000;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${opts.method} ${opts.path}: no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('close', () => clearTimeout(timer));
    const chunks: Buffer[] = [];
    const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
    socket.on('connect', () => {
      const head: Buffer[] = [
        Buffer.from(`${opts.method} ${opts.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`),
      ];
      for (const [name, value] of opts.headers ?? []) {
        head.push(Buffer.concat([Buffer.from(`${name}: `), Buffer.from(value), Buffer.from('\r\n')]));
      }
      if (body && opts.chunked) head.push(Buffer.from('Transfer-Encoding: chunked\r\n'));
      else if (body) head.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
      head.push(Buffer.from('\r\n'));
      socket.write(Buffer.concat(head));
      if (body && opts.chunked) {
        for (let offset = 0; offset < body.length; offset += 65536) {
          const part = body.subarray(offset, offset + 65536);
          socket.write(`${part.length.toString(16)}\r\n`);
          socket.write(part);
          socket.write('\r\n');
        }
        socket.write('0\r\n\r\n');
      } else if (body) {
        socket.write(body);
      }
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while we still send a body it refused; the answer is already in.
      if (chunks.length > 0 && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) socket.emit('end');
      else reject(error);
    });
    socket.on('end', () => {
      // Interim answers (100 Continue) come before the real one.
      const raw = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n)+/, '');
      const [head, ...rest] = raw.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const status = Number(lines[0].split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      let text = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked') text = dechunk(text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      resolve({ status, headers, text, body: parsed });
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const i = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, i), 16);
    if (!size) return out;
    out += rest.slice(i + 2, i + 2 + size);
    rest = rest.slice(i + 2 + size + 2);
  }
}
