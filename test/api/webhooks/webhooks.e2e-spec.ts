import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { DnsResolver } from '../../../src/common/security/dns-resolver';
import { expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useWebhookApp } from '../../support/webhook-app';
import { verifySignatures } from '../../support/webhook-receiver';
import { createKey, ISO, relayerBody as factoryRelayerBody, uid, UUID_V4 } from '../../factories';

describe('webhook events: relayer changes reach their notification target, signed and retried', () => {
  const { receiver, app, target, settled } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    // Far above any answer of the local receiver, even on a loaded machine: a slow answer is never a
    // second attempt here. The timeout itself is tested below, with 400 ms.
    WEBHOOK_TIMEOUT_MS: '30000',
    WEBHOOK_MAX_ATTEMPTS: '3',
  });

  const relayerBody = (notificationId: string | null, extra: object = {}) =>
    factoryRelayerBody('evm', { name: 'hooked', notification_id: notificationId, ...extra });
  const deliveries = async (notificationId: string, query = '') =>
    (await app().get(`/api/v1/notifications/${notificationId}/deliveries${query}`).expect(200)).body as {
      data: Array<Record<string, unknown>>;
      pagination: Record<string, number>;
    };

  it('create, update, delete: exactly those events in order, both signatures valid, X-Event-Id = body id', async () => {
    const key = secrets.add(`whsec-${randomBytes(20).toString('hex')}`);
    const hook = await target('/signed', key);
    const created = (await app().post('/api/v1/relayers', relayerBody(hook)).expect(201)).body.data as {
      id: string;
    };
    const updated = await app()
      .patch(`/api/v1/relayers/${created.id}`, {
        paused: true,
        name: 'renamed',
        policies: { min_balance: 5 },
      })
      .expect(200);
    await app().patch(`/api/v1/relayers/${created.id}`, {}).expect(200); // changes nothing: no event
    const current = (await app().get(`/api/v1/relayers/${created.id}`).expect(200)).body.data as object;
    await app().delete(`/api/v1/relayers/${created.id}`).expect(200);

    const got = await receiver.waitFor('/signed', 3);
    expect(got.map((r) => r.json.event)).toEqual(['relayer_created', 'relayer_updated', 'relayer_deleted']);
    expect(got.map((r) => r.json)).toEqual([
      {
        id: UUID_V4,
        event: 'relayer_created',
        payload: { payload_type: 'relayer_created', relayer: created },
        timestamp: ISO,
      },
      {
        id: UUID_V4,
        event: 'relayer_updated',
        payload: {
          payload_type: 'relayer_updated',
          relayer: updated.body.data as object,
          changed: ['name', 'paused', 'policies'],
        },
        timestamp: ISO,
      },
      {
        id: UUID_V4,
        event: 'relayer_deleted',
        payload: { payload_type: 'relayer_deleted', relayer: current },
        timestamp: ISO,
      },
    ]);
    for (const request of got) {
      expect({
        eventId: request.headers['x-event-id'],
        eventType: request.headers['x-event-type'],
        contentType: request.headers['content-type'],
        userAgent: request.headers['user-agent'],
        verified: verifySignatures(request, key),
      }).toEqual({
        eventId: request.json.id,
        eventType: request.json.event,
        contentType: 'application/json',
        userAgent: expect.stringMatching(/^relayer-service\/\d+\.\d+\.\d+$/),
        verified: { signature: true, signature256: true, t: expect.any(Number) },
      });
      expect(Math.abs(verifySignatures(request, key).t - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(new Set(got.map((r) => r.json.id)).size).toBe(3);
    const log = await settled(hook);
    expect(log.map((d) => [d.event, d.status, d.attempts, d.last_status_code])).toEqual([
      ['relayer_deleted', 'delivered', 1, 200],
      ['relayer_updated', 'delivered', 1, 200],
      ['relayer_created', 'delivered', 1, 200],
    ]);
  });

  it('a relayer without a target sends nothing; a target without a signing key gets no signature headers', async () => {
    const hook = await target('/unsigned');
    await app().post('/api/v1/relayers', relayerBody(null)).expect(201);
    const { id } = (await app().post('/api/v1/relayers', relayerBody(hook)).expect(201)).body.data as {
      id: string;
    };
    const [request] = await receiver.waitFor('/unsigned', 1);
    expect({
      event: request.json.event,
      relayer: (request.json.payload.relayer as { id: string }).id,
      signature: request.headers['x-signature'],
      signature256: request.headers['x-signature-256'],
    }).toEqual({ event: 'relayer_created', relayer: id, signature: undefined, signature256: undefined });
    expect(receiver.received.filter((r) => r.path === '/unsigned')).toHaveLength(1);
  });

  it('a change that fails validation or loses a race sends no event', async () => {
    const hook = await target('/refused');
    const body = relayerBody(hook);
    await app().post('/api/v1/relayers', body).expect(201);
    expectError(
      await app().post('/api/v1/relayers', { ...body }),
      409,
      'Relayer with this ID already exists',
    );
    expectError(
      await app().patch(`/api/v1/relayers/${body.id}`, { policies: { min_balance: -1 } }),
      400,
      'policies.min_balance must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
    );
    expect((await settled(hook)).map((d) => d.event)).toEqual(['relayer_created']);
    expect(receiver.to('/refused').map((r) => r.json.event)).toEqual(['relayer_created']);
  });

  /** The webhook counters of the metrics by outcome, and whether the oldest-pending gauge is there. */
  const webhookMetrics = async () => {
    const text = (await app().get('/debug/metrics/scrape').expect(200)).text;
    const count = (outcome: string) =>
      Number(
        new RegExp(`^webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
      );
    return {
      delivered: count('delivered'),
      retried: count('retried'),
      failed: count('failed'),
      oldestPendingGauge: /^webhook_oldest_pending_delivery_seconds \d+(\.\d+)?$/m.test(text),
    };
  };

  it('500, 500, then 200: delivered on the third attempt; the log and the metrics say so', async () => {
    const before = await webhookMetrics();
    receiver.script('/flaky', [{ status: 500 }, { status: 503 }, { status: 200 }]);
    const hook = await target('/flaky');
    await app().post('/api/v1/relayers', relayerBody(hook)).expect(201);
    const got = await receiver.waitFor('/flaky', 3);
    expect(new Set(got.map((r) => r.headers['x-event-id'])).size).toBe(1);
    const [delivery] = await settled(hook);
    expect(delivery).toEqual({
      id: UUID_V4,
      event_id: got[0].json.id,
      event: 'relayer_created',
      relayer_id: (got[0].json.payload.relayer as { id: string }).id,
      status: 'delivered',
      attempts: 3,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: ISO,
      delivered_at: ISO,
    });
    const after = await webhookMetrics();
    expect({
      delivered: after.delivered - before.delivered,
      retried: after.retried - before.retried,
      failed: after.failed - before.failed,
      gauge: after.oldestPendingGauge,
    }).toEqual({ delivered: 1, retried: 2, failed: 0, gauge: true });
  });

  it('retry queues a failed delivery again; the log paginates newest first and filters by status', async () => {
    receiver.script('/retry', [{ status: 410 }]);
    const hook = await target('/retry');
    const { id } = (await app().post('/api/v1/relayers', relayerBody(hook)).expect(201)).body.data as {
      id: string;
    };
    const [failed] = await settled(hook);
    expect(failed.status).toBe('failed');
    await app().patch(`/api/v1/relayers/${id}`, { name: 'second' }).expect(200);
    await app().patch(`/api/v1/relayers/${id}`, { name: 'third' }).expect(200);
    await receiver.waitFor('/retry', 3);
    await settled(hook);

    const page1 = await deliveries(hook, '?per_page=2');
    expect({ events: page1.data.map((d) => d.event), pagination: page1.pagination }).toEqual({
      events: ['relayer_updated', 'relayer_updated'],
      pagination: { current_page: 1, per_page: 2, total_items: 3 },
    });
    const page2 = await deliveries(hook, '?per_page=2&page=2');
    expect(page2.data.map((d) => d.id)).toEqual([failed.id]);
    const onlyFailed = await deliveries(hook, '?status=failed');
    expect({ ids: onlyFailed.data.map((d) => d.id), total: onlyFailed.pagination.total_items }).toEqual({
      ids: [failed.id],
      total: 1,
    });
    expectError(
      await app().get(`/api/v1/notifications/${hook}/deliveries?status=lost`),
      400,
      'status must be one of: pending, delivered, failed',
    );

    const retried = await app()
      .post(`/api/v1/notifications/${hook}/deliveries/${failed.id}/retry`)
      .expect(202);
    expect(retried.body).toEqual(successBody({ ...failed, status: 'pending', next_attempt_at: ISO }));
    await receiver.waitFor('/retry', 4);
    const again = (await settled(hook)).find((d) => d.id === failed.id);
    expect([again?.status, again?.attempts, again?.last_status_code]).toEqual(['delivered', 2, 200]);
    const resent = receiver.to('/retry');
    expect(resent[3].headers['x-event-id']).toBe(resent[0].headers['x-event-id']);

    expectError(
      await app().post(`/api/v1/notifications/${hook}/deliveries/${uid('none')}/retry`),
      404,
      'Delivery not found',
    );
    expectError(
      await app().get(`/api/v1/notifications/${uid('none')}/deliveries`),
      404,
      'Notification not found',
    );
  });

  it('retrying a delivery re-sends relayer data: it needs relayers:read besides notifications:write', async () => {
    receiver.script('/retry-perm', [{ status: 410 }]);
    const hook = await target('/retry-perm');
    await app().post('/api/v1/relayers', relayerBody(hook)).expect(201);
    const [failed] = await settled(hook);
    expect(failed.status).toBe('failed');
    const keyWith = async (permissions: string[]) =>
      (await createKey(app(), { name: 'retrier', permissions })).key;
    const retry = (key: string) =>
      app()
        .raw()
        .post(`/api/v1/notifications/${hook}/deliveries/${failed.id}/retry`)
        .set('Authorization', `Bearer ${key}`);
    expectError(await retry(await keyWith(['notifications:write'])), 403, 'Forbidden');
    expectError(await retry(await keyWith(['relayers:read'])), 403, 'Forbidden');
    expect((await deliveries(hook)).data.map((d) => d.status)).toEqual(['failed']);
    const both = await retry(await keyWith(['notifications:write', 'relayers:read']));
    expect({ status: both.status, body: both.body as unknown }).toEqual({
      status: 202,
      body: successBody({ ...failed, status: 'pending', next_attempt_at: ISO }),
    });
    await receiver.waitFor('/retry-perm', 2);
  });

  it('each body sent has the fields its entry under webhooks in the OpenAPI document requires, and no other', async () => {
    interface ObjectSchema {
      required: string[];
      properties: Record<string, ObjectSchema & { oneOf?: ObjectSchema[] }>;
    }
    const doc = (await app().get('/api/docs-json', false).expect(200)).body as {
      webhooks: Record<
        string,
        { post: { requestBody: { content: Record<string, { schema: ObjectSchema }> } } }
      >;
      components: { schemas: Record<string, ObjectSchema> };
    };
    const hook = await target('/described');
    const { id } = (await app().post('/api/v1/relayers', relayerBody(hook)).expect(201)).body.data as {
      id: string;
    };
    await app().patch(`/api/v1/relayers/${id}`, { name: 'described' }).expect(200);
    await app().delete(`/api/v1/relayers/${id}`).expect(200);
    // The test event is sent at once, the others by the dispatcher: after them, for a fixed order.
    await receiver.waitFor('/described', 3);
    await app().post(`/api/v1/notifications/${hook}/test`).expect(200);
    const got = await receiver.waitFor('/described', 4);
    const described = got.map(({ json }) => {
      const body = doc.webhooks[json.event].post.requestBody.content['application/json'].schema;
      const payload = body.properties.payload;
      const relayer = json.payload.relayer as Record<string, unknown> | undefined;
      return {
        body: Object.keys(json).sort(),
        payload: Object.keys(json.payload).sort(),
        relayer: relayer && Object.keys(relayer).sort(),
        described: {
          body: [...body.required].sort(),
          payload: [...payload.required].sort(),
          relayer: relayer && Object.keys(doc.components.schemas.RelayerResponse.properties).sort(),
        },
      };
    });
    expect(got.map((r) => r.json.event)).toEqual([
      'relayer_created',
      'relayer_updated',
      'relayer_deleted',
      'notification_test',
    ]);
    expect(described.map((d) => ({ body: d.body, payload: d.payload, relayer: d.relayer }))).toEqual(
      described.map((d) => d.described),
    );
  });

  it('POST .../test sends a signed notification_test now and reports what the receiver said', async () => {
    const key = secrets.add(`whsec-${randomBytes(20).toString('hex')}`);
    receiver.script('/probe', [{ status: 200 }, { status: 418 }]);
    const hook = await target('/probe', key);
    const ok = await app().post(`/api/v1/notifications/${hook}/test`).expect(200);
    expect(ok.body).toEqual(
      successBody({
        delivered: true,
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number) as unknown,
      }),
    );
    const [request] = await receiver.waitFor('/probe', 1);
    expect(request.json).toEqual({
      id: UUID_V4,
      event: 'notification_test',
      payload: { payload_type: 'notification_test', notification_id: hook },
      timestamp: ISO,
    });
    expect(verifySignatures(request, key)).toEqual({
      signature: true,
      signature256: true,
      t: expect.any(Number),
    });
    const refused = await app().post(`/api/v1/notifications/${hook}/test`, {}).expect(200);
    expect(refused.body).toEqual(
      successBody({
        delivered: false,
        status_code: 418,
        error: 'HTTP 418',
        duration_ms: expect.any(Number) as unknown,
      }),
    );
    expect((await settled(hook)).map((d) => [d.event, d.status, d.attempts])).toEqual([
      ['notification_test', 'failed', 1],
      ['notification_test', 'delivered', 1],
    ]);
    expectError(
      await app().post(`/api/v1/notifications/${hook}/test`, { extra: 1 }),
      400,
      'extra is not an allowed field',
    );
    expectError(await app().post(`/api/v1/notifications/${uid('none')}/test`), 404, 'Notification not found');
  });

  it('the API does not wait for the receiver: a PATCH answers while the receiver is still sleeping', async () => {
    const hook = await target('/sleepy');
    const body = relayerBody(null);
    await app().post('/api/v1/relayers', body).expect(201);
    receiver.script('/sleepy', [{ delayMs: 10_000 }]);
    await app().patch(`/api/v1/relayers/${body.id}`, { notification_id: hook }).expect(200);
    // The PATCH has answered; its event reaches the receiver, which has not answered yet (10 s).
    const [request] = await receiver.waitFor('/sleepy', 1);
    expect({
      event: request.json.event,
      changed: request.json.payload.changed,
      receiverAnswered: request.answeredAt !== null,
    }).toEqual({ event: 'relayer_updated', changed: ['notification_id'], receiverAnswered: false });
  });
});

describe('webhook targets whose name resolves to a blocked address are never contacted', () => {
  const { receiver, app } = useWebhookApp({
    WEBHOOK_BLOCK_PRIVATE_IPS: 'true',
    WEBHOOK_MAX_ATTEMPTS: '2',
    WEBHOOK_RETRY_BASE_MS: '20',
  });

  it('a name that resolves to loopback (DNS rebinding) fails without a connection; the URL itself passed', async () => {
    jest
      .spyOn(app().app.get(DnsResolver), 'lookup')
      .mockImplementation((_hostname: string, callback: (error: null, addresses: LookupAddress[]) => void) =>
        callback(null, [{ address: '127.0.0.1', family: 4 }]),
      );
    const id = uid('rebind');
    await app()
      .post('/api/v1/notifications', { id, url: `http://hooks.rebind.example:${receiver.port}/x` })
      .expect(201);
    const tried = await app().post(`/api/v1/notifications/${id}/test`).expect(200);
    expect(tried.body).toEqual(
      successBody({
        delivered: false,
        status_code: null,
        error:
          'hooks.rebind.example resolves to an address that points to a private or loopback address (set WEBHOOK_BLOCK_PRIVATE_IPS=false to allow private addresses)',
        duration_ms: expect.any(Number) as unknown,
      }),
    );
    expect(receiver.received).toEqual([]);
  });
});

describe('webhook events: a target that refuses or never answers', () => {
  const { receiver, app, target, settled } = useWebhookApp({
    WEBHOOK_RETRY_BASE_MS: '40',
    WEBHOOK_TIMEOUT_MS: '400',
    WEBHOOK_MAX_ATTEMPTS: '3',
  });
  const relayerBody = (notificationId: string | null) =>
    factoryRelayerBody('evm', { name: 'hooked', notification_id: notificationId });

  it('400: failed after one attempt (the receiver refused it); a receiver that never answers: failed after WEBHOOK_MAX_ATTEMPTS', async () => {
    receiver.script('/refusing', [{ status: 400 }]);
    receiver.script('/silent', [{ never: true }, { never: true }, { never: true }]);
    const refusing = await target('/refusing');
    const silent = await target('/silent');
    await app().post('/api/v1/relayers', relayerBody(refusing)).expect(201);
    await app().post('/api/v1/relayers', relayerBody(silent)).expect(201);
    const [refused] = await settled(refusing);
    expect([refused.status, refused.attempts, refused.last_status_code, refused.last_error]).toEqual([
      'failed',
      1,
      400,
      'HTTP 400',
    ]);
    const [timedOut] = await settled(silent);
    expect([timedOut.status, timedOut.attempts, timedOut.last_status_code, timedOut.last_error]).toEqual([
      'failed',
      3,
      null,
      'timed out',
    ]);
    expect(receiver.to('/refusing')).toHaveLength(1);
    expect(receiver.to('/silent')).toHaveLength(3);
  });
});
