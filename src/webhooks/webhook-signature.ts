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

export interface StandardWebhooksHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * docs/reference/webhooks.md#13-standard-webhooks: the Standard Webhooks headers, each signature
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with a secret (the bytes of a whsec_
 * key, standardWebhooksSecret), space-separated, the new key's first during a rotation's overlap.
 */
export function standardWebhooksHeaders(
  id: string,
  secrets: readonly [Buffer, ...Buffer[]],
  body: string,
  now: Date = new Date(),
): StandardWebhooksHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  const signed = `${id}.${timestamp}.${body}`;
  const v1 = (secret: Buffer) => `v1,${createHmac('sha256', secret).update(signed, 'utf8').digest('base64')}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map(v1).join(' '),
  };
}
