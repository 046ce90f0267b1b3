import type { Response } from 'express';
import type { Principal } from './principal';

export const EXPIRY_HEADER = 'X-Api-Key-Expires-At';
/** docs/reference/keys-and-audit.md#43-expiry-you-can-see-coming */
export const EXPIRY_WARNING_MS = 7 * 24 * 3600 * 1000;

/** On every answer to an API key whose secret stops working within 7 days: when, in ISO 8601. */
export function expiryHeader(principal: Principal, response: Pick<Response, 'setHeader'>): void {
  const ends = principal.secretExpiresAt;
  // A person's session ends within hours by design: the header warns keys' owners, not people.
  if (principal.type === 'api_key' && ends && ends.getTime() - Date.now() <= EXPIRY_WARNING_MS) {
    response.setHeader(EXPIRY_HEADER, ends.toISOString());
  }
}
