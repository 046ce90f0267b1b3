import { createHmac } from 'node:crypto';

/** docs/reference/webhooks.md#1-events; the timestamp lets a receiver refuse old replays. */
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
