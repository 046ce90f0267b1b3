import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

// One-shot crypto.hash: several times cheaper per request than a createHash object.
const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/** docs/reference/auth.md; compared as digests in constant time, so that neither content nor length leaks. */
export class ApiKeyVerifier {
  private readonly expected: Buffer;

  constructor(apiKey: string) {
    this.expected = digest(apiKey);
  }

  bearerToken(headers: IncomingHttpHeaders, rawHeaders: readonly string[]): string | null {
    let count = 0;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      if (rawHeaders[i].toLowerCase() === 'authorization') count += 1;
    }
    const value = headers.authorization;
    if (count !== 1 || typeof value !== 'string') return null;
    const match = /^Bearer ([^\s,]+)$/i.exec(value);
    return match ? match[1] : null;
  }

  isAdmin(token: string): boolean {
    return timingSafeEqual(digest(token), this.expected);
  }
}
