import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhooksSecret } from '../notifications';
import { signatureHeaders, standardWebhooksHeaders } from './webhook-signature';

describe('signatureHeaders', () => {
  const key = 'a-signing-key-of-at-least-32-characters';
  const body =
    '{"id":"e1","event":"relayer_created","payload":{"payload_type":"relayer_created"},"timestamp":"2026-11-23T00:00:00.000Z"}';

  it('X-Signature is the base64 HMAC-SHA256 of the exact body bytes (the reference receivers check this)', () => {
    // printf '%s' '{"id":"e1"}' | openssl dgst -sha256 -hmac "$key" -binary | base64
    expect(signatureHeaders(key, '{"id":"e1"}')['X-Signature']).toBe(
      '52xmQPOUFV3mT6zQ3/nNlHVyP1V7gBhTszvsNfEdLnk=',
    );
  });

  it('X-Signature-256 signs "<t>.<body>" with the unix time in seconds', () => {
    const headers = signatureHeaders(key, body, new Date(1_795_000_000_999));
    expect(headers['X-Signature-256']).toBe(
      `t=1795000000,v1=${createHmac('sha256', key).update(`1795000000.${body}`).digest('hex')}`,
    );
  });

  it('changes with every byte of the body and with the key', () => {
    const at = new Date(0);
    const base = signatureHeaders(key, body, at);
    expect(signatureHeaders(key, `${body} `, at)).not.toEqual(base);
    expect(signatureHeaders(`${key}x`, body, at)).not.toEqual(base);
  });
});

describe('signatureHeaders during a rotation overlap', () => {
  const key = 'the-new-signing-key-of-at-least-32-chars';
  const previous = 'the-old-signing-key-of-at-least-32-chars';
  const body = '{"id":"e2"}';
  const hex = (k: string, t: number) => createHmac('sha256', k).update(`${t}.${body}`).digest('hex');

  it('signs with both keys: X-Signature the new, X-Signature-Previous the old, v1 entries new first', () => {
    expect(signatureHeaders(key, body, new Date(1_795_000_000_000), previous)).toEqual({
      'X-Signature': createHmac('sha256', key).update(body).digest('base64'),
      'X-Signature-Previous': createHmac('sha256', previous).update(body).digest('base64'),
      'X-Signature-256': `t=1795000000,v1=${hex(key, 1_795_000_000)},v1=${hex(previous, 1_795_000_000)}`,
    });
  });

  it('without a previous key has neither the header nor a second entry', () => {
    expect(signatureHeaders(key, body, new Date(1_795_000_000_000))).toEqual({
      'X-Signature': createHmac('sha256', key).update(body).digest('base64'),
      'X-Signature-256': `t=1795000000,v1=${hex(key, 1_795_000_000)}`,
    });
  });
});

describe('standardWebhooksHeaders, checked with the specification’s official library', () => {
  const body = '{"id":"e3","event":"relayer_created"}';
  const key = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const previous = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  const secretOf = (k: string) => standardWebhooksSecret(k) as Buffer;

  it('signs "<id>.<timestamp>.<body>" with the decoded secret: the library verifies and signs the same', () => {
    const now = new Date();
    const headers = standardWebhooksHeaders('e3', [secretOf(key)], body, now);
    const seconds = Math.floor(now.getTime() / 1000);
    expect(headers).toEqual({
      'webhook-id': 'e3',
      'webhook-timestamp': String(seconds),
      'webhook-signature': new Webhook(key).sign('e3', new Date(seconds * 1000), body),
    });
    expect(new Webhook(key).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('with two secrets, both entries space-separated, the first one first; each verifies alone', () => {
    const headers = standardWebhooksHeaders('e3', [secretOf(key), secretOf(previous)], body);
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    expect(headers['webhook-signature']).toBe(
      `${new Webhook(key).sign('e3', at, body)} ${new Webhook(previous).sign('e3', at, body)}`,
    );
    for (const k of [key, previous])
      expect(new Webhook(k).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });
});

describe('standardWebhooksSecret: the bytes of a whsec_ key, or null', () => {
  const b64 = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');
  it.each([
    ['24 bytes', `whsec_${b64(24)}`, 24],
    ['64 bytes', `whsec_${b64(64)}`, 64],
    ['25 bytes, padded', `whsec_${b64(25)}`, 25],
    ['23 bytes', `whsec_${b64(23)}`, null],
    ['65 bytes', `whsec_${b64(65)}`, null],
    ['no prefix', b64(32), null],
    ['another prefix', `whsec-${b64(24)}`, null],
    ['unpadded', `whsec_${b64(25).replace(/=+$/, '')}`, null],
    ['base64url characters', `whsec_${b64(24).replace(/^./, '-')}`, null],
    ['null', null, null],
  ])('%s', (_name, key, bytes) => {
    expect(standardWebhooksSecret(key)?.length ?? null).toBe(bytes);
  });
});
