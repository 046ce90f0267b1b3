import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useWebhookApp } from '../../support/webhook-app';
import { verifySignatures, type ReceivedWebhook } from '../../support/webhook-receiver';
import { createKey, relayerBody } from '../../factories';

const ADMIN = { type: 'admin', id: 'admin', name: 'API_KEY' };
const WHSEC_RULE = 'a whsec_ key (whsec_ then the base64 of 24 to 64 bytes)';
const SCHEME_NEEDS_KEY = `scheme standard needs the target's signing_key to be ${WHSEC_RULE}`;
const KEY_NEEDS_WHSEC = `signing_key must be ${WHSEC_RULE} while the signing scheme is standard`;
const SCHEME_RULE = 'scheme must be one of: reference, standard';
const STANDARD_HEADERS = ['webhook-id', 'webhook-signature', 'webhook-timestamp'];

/** A key as a Standard Webhooks provider hands it out: whsec_ and the base64 of 24 random bytes. */
const whsecKey = (): string => secrets.add(`whsec_${randomBytes(24).toString('base64')}`);
/** A key the reference scheme takes and the standard one does not. */
const plainKey = (): string => secrets.add(`plain-${randomBytes(20).toString('hex')}`);

/** The request's headers as a receiver's framework hands them to the official library. */
const headersOf = (received: ReceivedWebhook): Record<string, string> =>
  Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, String(value)]));

/** What the official library says of a delivery with `key`: its parsed body, or why it refused it. */
function verify(received: ReceivedWebhook, key: string): unknown {
  try {
    return new Webhook(key).verify(received.body, headersOf(received));
  } catch (error) {
    if (error instanceof WebhookVerificationError) return `refused: ${error.message}`;
    throw error;
  }
}

const standardHeaders = (received: ReceivedWebhook) =>
  Object.keys(received.headers)
    .filter((name) => name.startsWith('webhook-'))
    .sort();

describe('Standard Webhooks signatures on request (docs/reference/webhooks.md#13-standard-webhooks)', () => {
  const { receiver, app, target } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '2000',
  });

  const scheme = async (id: string) =>
    (await app().get(`/api/v1/notifications/${id}/signing-scheme`).expect(200)).body as unknown;
  const putScheme = (id: string, body: unknown) =>
    app().put(`/api/v1/notifications/${id}/signing-scheme`, body);
  const sendTest = async (id: string, path: string): Promise<ReceivedWebhook> => {
    const count = receiver.to(path).length;
    await app().post(`/api/v1/notifications/${id}/test`, undefined).expect(200);
    return (await receiver.waitFor(path, count + 1))[count];
  };
  const audit = async (id: string) => {
    const res = await app().get(`/api/v1/audit?resource_type=notification&resource_id=${id}`).expect(200);
    expect(secrets.foundIn(res.text)).toEqual([]);
    return (res.body.data as Array<{ actor: object; action: string; before: object; after: object }>)
      .filter((r) => r.action !== 'notification.create')
      .map(({ actor, action, before, after }) => ({ actor, action, before, after }));
  };

  it('a new target is reference: GET answers it, its deliveries carry no webhook-* header', async () => {
    const key = plainKey();
    const hook = await target('/plain', key);
    const res = await app().get(`/api/v1/notifications/${hook}/signing-scheme`);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: successBody({ scheme: 'reference' }),
    });
    const received = await sendTest(hook, '/plain');
    expect(standardHeaders(received)).toEqual([]);
    expect(verifySignatures(received, key)).toEqual({
      signature: true,
      signature256: true,
      t: expect.any(Number),
    });
  });

  it('standard: each delivery verifies with the official library, beside the unchanged reference headers; audited; the notification keeps its shape', async () => {
    const key = whsecKey();
    const hook = await target('/standard', key);
    const put = await putScheme(hook, { scheme: 'standard' });
    expect({ status: put.status, body: put.body }).toEqual({
      status: 200,
      body: successBody({ scheme: 'standard' }),
    });
    expect(await scheme(hook)).toEqual(successBody({ scheme: 'standard' }));

    const received = await sendTest(hook, '/standard');
    expect(standardHeaders(received)).toEqual(STANDARD_HEADERS);
    expect(verify(received, key)).toEqual(JSON.parse(received.body));
    expect(verify(received, whsecKey())).toBe('refused: No matching signature found');
    // The id is the event's, the timestamp the attempt's: the same second as X-Signature-256's t.
    const reference = verifySignatures(received, key);
    expect(reference).toEqual({ signature: true, signature256: true, t: expect.any(Number) });
    expect({
      id: received.headers['webhook-id'],
      timestamp: received.headers['webhook-timestamp'],
      signature: received.headers['webhook-signature'],
    }).toEqual({
      id: received.json.id,
      timestamp: String(reference.t),
      signature: new Webhook(key).sign(received.json.id, new Date(reference.t * 1000), received.body),
    });
    expect(received.headers['x-event-id']).toBe(received.json.id);

    // The same scheme again: answered, nothing recorded.
    const again = await putScheme(hook, { scheme: 'standard' });
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: put.body });
    const notification = await app().get(`/api/v1/notifications/${hook}`);
    expect(notification.body).toEqual(
      successBody({ id: hook, type: 'webhook', url: receiver.url('/standard'), has_signing_key: true }),
    );
    expect(await audit(hook)).toEqual([
      {
        actor: ADMIN,
        action: 'notification.update',
        before: { scheme: 'reference' },
        after: { scheme: 'standard' },
      },
    ]);
    for (const text of [put.text, notification.text]) expect(secrets.foundIn(text)).toEqual([]);
  });

  it('webhook-id is the same on every attempt of a delivery; each attempt is signed at its own time', async () => {
    const key = whsecKey();
    const hook = await target('/retried', key);
    await putScheme(hook, { scheme: 'standard' }).expect(200);
    receiver.script('/retried', [{ status: 503 }, { status: 200 }]);
    await app()
      .post('/api/v1/relayers', relayerBody('evm', { notification_id: hook }))
      .expect(201);
    const [first, second] = await receiver.waitFor('/retried', 2);
    expect([first.json.id, second.json.id]).toEqual([
      first.headers['x-event-id'],
      first.headers['x-event-id'],
    ]);
    expect([first.headers['webhook-id'], second.headers['webhook-id']]).toEqual([
      first.json.id,
      first.json.id,
    ]);
    expect([verify(first, key), verify(second, key)]).toEqual([
      JSON.parse(first.body),
      JSON.parse(first.body),
    ]);
    for (const attempt of [first, second]) {
      expect(attempt.headers['webhook-timestamp']).toBe(String(verifySignatures(attempt, key).t));
    }
  });

  it('during a rotation both signatures, new first, each verifying with its own key; after a PATCH only the new one', async () => {
    const old = whsecKey();
    const current = whsecKey();
    const hook = await target('/rotated', old);
    await putScheme(hook, { scheme: 'standard' }).expect(200);
    await app()
      .post(`/api/v1/notifications/${hook}/signing-key`, { signing_key: current, overlap_seconds: 600 })
      .expect(200);
    const during = await sendTest(hook, '/rotated');
    const t = new Date(Number(during.headers['webhook-timestamp']) * 1000);
    const id = String(during.headers['webhook-id']);
    expect(during.headers['webhook-signature']).toBe(
      `${new Webhook(current).sign(id, t, during.body)} ${new Webhook(old).sign(id, t, during.body)}`,
    );
    expect([verify(during, current), verify(during, old)]).toEqual([
      JSON.parse(during.body),
      JSON.parse(during.body),
    ]);
    // The reference headers as they were: both keys there too.
    expect(during.headers['x-signature-previous']).toEqual(expect.any(String));

    const third = whsecKey();
    await app().patch(`/api/v1/notifications/${hook}`, { signing_key: third }).expect(200);
    const after = await sendTest(hook, '/rotated');
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verify(after, third), verify(after, current)]).toEqual([
      JSON.parse(after.body),
      'refused: No matching signature found',
    ]);
  });

  it('a previous key that is no whsec_ key signs only the reference headers during the overlap', async () => {
    const old = plainKey();
    const current = whsecKey();
    const hook = await target('/from-plain', old);
    await app()
      .post(`/api/v1/notifications/${hook}/signing-key`, { signing_key: current, overlap_seconds: 600 })
      .expect(200);
    await putScheme(hook, { scheme: 'standard' }).expect(200);
    const received = await sendTest(hook, '/from-plain');
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(received, current)).toEqual(JSON.parse(received.body));
    expect(received.headers['x-signature-256']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  });

  it('standard needs a whsec_ key: a target without one or with another is a 400 naming scheme, nothing changed', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['/no-key', undefined],
      ['/plain-key', plainKey()],
      // whsec_ then something that is not padded base64, or too few or too many bytes.
      ['/not-base64', secrets.add(`whsec_${randomBytes(24).toString('base64url').replace(/^./, '-')}`)],
      ['/unpadded', secrets.add(`whsec_${randomBytes(25).toString('base64').replace(/=+$/, '')}`)],
      ['/too-short', secrets.add(`whsec_${randomBytes(23).toString('base64')}`)],
      ['/too-long', secrets.add(`whsec_${randomBytes(65).toString('base64')}`)],
    ];
    for (const [path, key] of cases) {
      const hook = await target(path, key);
      const res = await putScheme(hook, { scheme: 'standard' });
      expectError(res, 400, SCHEME_NEEDS_KEY);
      expect(secrets.foundIn(res.text)).toEqual([]);
      expect(await scheme(hook)).toEqual(successBody({ scheme: 'reference' }));
      expect(await audit(hook)).toEqual([]);
    }
    const bounds = await target('/bounds', secrets.add(`whsec_${randomBytes(64).toString('base64')}`));
    await putScheme(bounds, { scheme: 'standard' }).expect(200);
  });

  it('bodies are validated: 400 naming scheme or the unknown field', async () => {
    const hook = await target('/bodies', whsecKey());
    const cases: Array<[unknown, string]> = [
      [{}, SCHEME_RULE],
      [{ scheme: null }, SCHEME_RULE],
      [{ scheme: 'svix' }, SCHEME_RULE],
      [{ scheme: 'STANDARD' }, SCHEME_RULE],
      [{ scheme: 1 }, SCHEME_RULE],
      [{ scheme: 'standard', extra: 1 }, 'extra is not an allowed field'],
    ];
    for (const [body, message] of cases) expectError(await putScheme(hook, body), 400, message);
    expect(await scheme(hook)).toEqual(successBody({ scheme: 'reference' }));
  });

  it('on a standard target a key that is no whsec_ key is a 400 naming signing_key: PATCH, removal and rotation; nothing changed', async () => {
    const key = whsecKey();
    const hook = await target('/guarded', key);
    await putScheme(hook, { scheme: 'standard' }).expect(200);
    const before = await app().get(`/api/v1/notifications/${hook}`).expect(200);
    const refused = [
      await app().patch(`/api/v1/notifications/${hook}`, { signing_key: plainKey() }),
      await app().patch(`/api/v1/notifications/${hook}`, { signing_key: '' }),
      await app().post(`/api/v1/notifications/${hook}/signing-key`, {
        signing_key: plainKey(),
        overlap_seconds: 60,
      }),
    ];
    for (const res of refused) {
      expectError(res, 400, KEY_NEEDS_WHSEC);
      expect(secrets.foundIn(res.text)).toEqual([]);
    }
    const after = await app().get(`/api/v1/notifications/${hook}`).expect(200);
    expect({ body: after.body, etag: after.headers.etag }).toEqual({
      body: before.body,
      etag: before.headers.etag,
    });
    const received = await sendTest(hook, '/guarded');
    expect(verify(received, key)).toEqual(JSON.parse(received.body));
    // A whsec_ key is taken, by PATCH and by rotation.
    await app().patch(`/api/v1/notifications/${hook}`, { signing_key: whsecKey() }).expect(200);
    await app()
      .post(`/api/v1/notifications/${hook}/signing-key`, { signing_key: whsecKey(), overlap_seconds: 0 })
      .expect(200);
  });

  it('back to reference: the webhook-* headers stop, any key is taken again; both changes audited', async () => {
    const hook = await target('/back', whsecKey());
    await putScheme(hook, { scheme: 'standard' }).expect(200);
    expect(standardHeaders(await sendTest(hook, '/back'))).toEqual(STANDARD_HEADERS);
    const back = await putScheme(hook, { scheme: 'reference' });
    expect({ status: back.status, body: back.body }).toEqual({
      status: 200,
      body: successBody({ scheme: 'reference' }),
    });
    const key = plainKey();
    await app().patch(`/api/v1/notifications/${hook}`, { signing_key: key }).expect(200);
    const received = await sendTest(hook, '/back');
    expect(standardHeaders(received)).toEqual([]);
    expect(verifySignatures(received, key)).toEqual({
      signature: true,
      signature256: true,
      t: expect.any(Number),
    });
    const updates = (await audit(hook)).filter((r) => 'scheme' in r.after);
    expect(updates).toEqual([
      {
        actor: ADMIN,
        action: 'notification.update',
        before: { scheme: 'standard' },
        after: { scheme: 'reference' },
      },
      {
        actor: ADMIN,
        action: 'notification.update',
        before: { scheme: 'reference' },
        after: { scheme: 'standard' },
      },
    ]);
  });

  it('an unknown target is a 404; notifications:read reads the scheme, writing it needs notifications:write', async () => {
    expectError(await app().get('/api/v1/notifications/nope/signing-scheme'), 404, 'Notification not found');
    expectError(await putScheme('nope', { scheme: 'reference' }), 404, 'Notification not found');
    const hook = await target('/permissions', whsecKey());
    const reader = (await createKey(app(), { name: 'reader', permissions: ['notifications:read'] })).key;
    const read = await request(app().baseUrl)
      .get(`/api/v1/notifications/${hook}/signing-scheme`)
      .set('Authorization', `Bearer ${reader}`);
    expect({ status: read.status, body: read.body as unknown }).toEqual({
      status: 200,
      body: successBody({ scheme: 'reference' }),
    });
    expectError(
      await request(app().baseUrl)
        .put(`/api/v1/notifications/${hook}/signing-scheme`)
        .set('Authorization', `Bearer ${reader}`)
        .send({ scheme: 'standard' }),
      403,
      'Forbidden',
    );
    expect(await scheme(hook)).toEqual(successBody({ scheme: 'reference' }));
  });
});
