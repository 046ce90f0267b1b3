import { createHmac } from 'node:crypto';

/**
 * The signature headers of a delivery (docs/reference/webhooks.md#1-events), for a target with a signing key:
 * - `X-Signature`: base64 HMAC-SHA256 of the exact body bytes, keyed with the key's UTF-8 bytes,
 *   which is what the reference system's receivers verify;
 * - `X-Signature-256`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, so that a receiver
 *   can refuse a replay older than it likes.
 */
export function signatureHeaders(
  signingKey: string,
  body: string,
  now: Date = new Date(),
): { 'X-Signature': string; 'X-Signature-256': string } {
  const t = Math.floor(now.getTime() / 1000);
  return {
    'X-Signature': createHmac('sha256', signingKey).update(body, 'utf8').digest('base64'),
    'X-Signature-256': `t=${t},v1=${createHmac('sha256', signingKey).update(`${t}.${body}`, 'utf8').digest('hex')}`,
  };
}
