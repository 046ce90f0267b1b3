import { createHmac } from 'node:crypto';
import { signatureHeaders } from './webhook-signature';

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
