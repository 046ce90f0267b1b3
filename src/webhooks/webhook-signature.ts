import { createHmac } from 'node:crypto';

export interface SignatureHeaders {
  'X-Signature': string;
  'X-Signature-256': string;
  'X-Signature-Previous'?: string;
}

/**
 * docs/reference/webhooks.md#1-events; the timestamp lets a receiver refuse old replays. During a
 * rotation's overlap (docs/reference/webhooks.md#11-rotating-the-signing-key) `previousKey` signs
 * too: `X-Signature-Previous`, and a second `v1=` entry after the new key's.
 */
export function signatureHeaders(
  signingKey: string,
  body: string,
  now: Date = new Date(),
  previousKey: string | null = null,
): SignatureHeaders {
  const t = Math.floor(now.getTime() / 1000);
  const base64 = (key: string) => createHmac('sha256', key).update(body, 'utf8').digest('base64');
  const v1 = (key: string) => `v1=${createHmac('sha256', key).update(`${t}.${body}`, 'utf8').digest('hex')}`;
  const keys = previousKey === null ? [signingKey] : [signingKey, previousKey];
  return {
    'X-Signature': base64(signingKey),
    ...(previousKey === null ? {} : { 'X-Signature-Previous': base64(previousKey) }),
    'X-Signature-256': [`t=${t}`, ...keys.map(v1)].join(','),
  };
}
