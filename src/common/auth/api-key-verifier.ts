import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

// One-shot crypto.hash: several times cheaper per request than a createHash object.
const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/**
 * Checks `Authorization: Bearer <token>` against the API key (docs/reference/auth.md): exactly one
 * header, scheme Bearer in any case, exactly one token, compared as SHA-256 digests in constant
 * time so that neither content nor length leaks.
 */
export class ApiKeyVerifier {
  private readonly expected: Buffer;

  constructor(apiKey: string) {
    this.expected = digest(apiKey);
  }

  /** The presented token when it is the API key, otherwise null. */
  verify(headers: IncomingHttpHeaders, rawHeaders: readonly string[]): string | null {
    const token = this.bearerToken(headers, rawHeaders);
    return token !== null && this.isAdmin(token) ? token : null;
  }

  /** The one bearer token of the request, or null when there is none, or several, or it is malformed. */
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

  /** Whether the token is the environment's API_KEY (constant time, by digest). */
  isAdmin(token: string): boolean {
    return timingSafeEqual(digest(token), this.expected);
  }
}
