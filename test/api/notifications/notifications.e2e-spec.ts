import { randomBytes } from 'node:crypto';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { uid, UUID_V4 } from '../../factories';

const key = (): string => secrets.add(randomBytes(24).toString('hex'));

describe('notifications API', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  describe('POST /api/v1/notifications', () => {
    it('creates a webhook and answers 201 with the notification, never the key', async () => {
      const signingKey = key();
      const id = uid('n');
      const res = await app()
        .post('/api/v1/notifications', {
          id,
          type: 'webhook',
          url: 'https://hooks.example.com/a',
          signing_key: signingKey,
        })
        .expect(201);
      expect(res.type).toBe('application/json');
      expect(res.body).toEqual(
        successBody({ id, type: 'webhook', url: 'https://hooks.example.com/a', has_signing_key: true }),
      );
      expect(res.text).not.toContain(signingKey);
      const got = await app().get(`/api/v1/notifications/${id}`).expect(200);
      expect(got.body).toEqual(res.body);
    });

    it('generates a UUID v4 id when none (or null) is given, and defaults type to webhook', async () => {
      for (const body of [
        { url: 'https://hooks.example.com/b' },
        { id: null, url: 'https://hooks.example.com/b' },
      ]) {
        const res = await app().post('/api/v1/notifications', body).expect(201);
        expect(res.body).toEqual(
          successBody({
            id: UUID_V4,
            type: 'webhook',
            url: 'https://hooks.example.com/b',
            has_signing_key: false,
          }),
        );
      }
    });

    it('answers 409 for a duplicate id, also when two creates race', async () => {
      const id = uid('n');
      await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/c' }).expect(201);
      expectError(
        await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/d' }),
        409,
        'Notification with this ID already exists',
      );
      const racing = uid('n');
      const results = await Promise.all(
        [1, 2, 3, 4].map(() =>
          app().post('/api/v1/notifications', { id: racing, url: 'https://hooks.example.com/e' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    });

    it.each([
      [
        'id with a space',
        { id: 'a b', url: 'https://x.example.com' },
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ],
      [
        'id of 37 characters',
        { id: 'a'.repeat(37), url: 'https://x.example.com' },
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ],
      [
        'empty id',
        { id: '', url: 'https://x.example.com' },
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ],
      [
        'id of another type',
        { id: 5, url: 'https://x.example.com' },
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ],
      ['missing url', {}, 'url must be a string holding an http or https URL'],
      ['url of another type', { url: 42 }, 'url must be a string holding an http or https URL'],
      ['ftp url', { url: 'ftp://files.example.com/x' }, 'url must be an http or https URL'],
      ['url without scheme', { url: 'hooks.example.com/x' }, 'url must be an http or https URL'],
      ['metadata address', { url: 'http://169.254.169.254/' }, 'url points to a cloud metadata address'],
      [
        'IPv4-mapped metadata address',
        { url: 'http://[::ffff:169.254.169.254]/' },
        'url points to a cloud metadata address',
      ],
      ['decimal metadata address', { url: 'http://2852039166/' }, 'url points to a cloud metadata address'],
      [
        'metadata host name',
        { url: 'http://metadata.google.internal/x' },
        'url points to a cloud metadata address',
      ],
      ['unspecified address', { url: 'http://0.0.0.0/' }, 'url points to an unspecified address'],
      ['unspecified IPv6 address', { url: 'http://[::]/' }, 'url points to an unspecified address'],
      [
        'short signing key',
        { url: 'https://x.example.com', signing_key: 'short' },
        'signing_key must be a string of 32 to 1024 characters',
      ],
      [
        'signing key of another type',
        { url: 'https://x.example.com', signing_key: 123 },
        'signing_key must be a string of 32 to 1024 characters',
      ],
      ['type email', { url: 'https://x.example.com', type: 'email' }, 'type must be one of: webhook'],
      ['unknown field', { url: 'https://x.example.com', events: ['all'] }, 'events is not an allowed field'],
      [
        'several problems, listed in a stable order',
        { id: 'a b', url: 'https://x.example.com', type: 'sms', extra: 1 },
        "extra is not an allowed field; id must be 1 to 36 characters of letters, digits, '-' or '_'; type must be one of: webhook",
      ],
    ])('refuses %s with a 400 naming the field', async (_case, body, message) => {
      expectError(await app().post('/api/v1/notifications', body), 400, message);
    });

    // docs/reference/envelope-and-errors.md and docs/reference/hardening.md: the URL policy's problem and the DTO's problems in one 400.
    it.each([
      [
        'bad url and a non-string signing_key',
        { url: 'http://169.254.169.254/latest', signing_key: 123 },
        'signing_key must be a string of 32 to 1024 characters; url points to a cloud metadata address',
      ],
      [
        'url that is no URL, a bad type and an unknown field',
        { url: 'ftp://x.example.com', type: 'sms', events: ['all'] },
        'events is not an allowed field; type must be one of: webhook; url must be an http or https URL',
      ],
    ])('names every problem of a create: %s', async (_case, body, message) => {
      expectError(await app().post('/api/v1/notifications', body), 400, message);
    });

    it('refuses private addresses only when WEBHOOK_BLOCK_PRIVATE_IPS is set (off here)', async () => {
      await app().post('/api/v1/notifications', { url: 'http://127.0.0.1:9000/hook' }).expect(201);
    });
  });

  describe('PATCH /api/v1/notifications/{id}', () => {
    it('updates the url and keeps the key and type when they are absent or null', async () => {
      const id = uid('n');
      await app()
        .post('/api/v1/notifications', { id, url: 'https://hooks.example.com/1', signing_key: key() })
        .expect(201);
      const res = await app()
        .patch(`/api/v1/notifications/${id}`, { url: 'https://hooks.example.com/2' })
        .expect(200);
      expect(res.body).toEqual(
        successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: true }),
      );
      const nulls = await app()
        .patch(`/api/v1/notifications/${id}`, { signing_key: null, type: null })
        .expect(200);
      expect(nulls.body).toEqual(res.body);
    });

    it('refuses "url": null with a 400 naming url, and changes nothing', async () => {
      const id = uid('n');
      const created = await app()
        .post('/api/v1/notifications', { id, url: 'https://hooks.example.com/n', signing_key: key() })
        .expect(201);
      expectError(
        await app().patch(`/api/v1/notifications/${id}`, { url: null }),
        400,
        'url must not be null',
      );
      expectError(
        await app().patch(`/api/v1/notifications/${id}`, { url: null, signing_key: '', type: null }),
        400,
        'url must not be null',
      );
      expect((await app().get(`/api/v1/notifications/${id}`).expect(200)).body).toEqual(created.body);
    });

    it('names every problem of a PATCH, the URL policy with the rest, and changes nothing', async () => {
      const id = uid('n');
      const created = await app()
        .post('/api/v1/notifications', { id, url: 'https://hooks.example.com/e', signing_key: key() })
        .expect(201);
      expectError(
        await app().patch(`/api/v1/notifications/${id}`, {
          url: 'http://169.254.169.254/latest',
          signing_key: 123,
        }),
        400,
        'signing_key must be a string of 32 to 1024 characters; url points to a cloud metadata address',
      );
      expect((await app().get(`/api/v1/notifications/${id}`).expect(200)).body).toEqual(created.body);
    });

    it('removes the key with signing_key "" and sets a new one with a long enough key', async () => {
      const id = uid('n');
      await app()
        .post('/api/v1/notifications', { id, url: 'https://hooks.example.com/k', signing_key: key() })
        .expect(201);
      const removed = await app().patch(`/api/v1/notifications/${id}`, { signing_key: '' }).expect(200);
      expect(removed.body).toEqual(
        successBody({ id, type: 'webhook', url: 'https://hooks.example.com/k', has_signing_key: false }),
      );
      const set = await app().patch(`/api/v1/notifications/${id}`, { signing_key: key() }).expect(200);
      expect(set.body).toEqual(
        successBody({ id, type: 'webhook', url: 'https://hooks.example.com/k', has_signing_key: true }),
      );
      expectError(
        await app().patch(`/api/v1/notifications/${id}`, { signing_key: 'x'.repeat(31) }),
        400,
        'signing_key must be a string of 32 to 1024 characters',
      );
    });

    it('answers {} with 200 and the unchanged notification', async () => {
      const id = uid('n');
      const created = await app()
        .post('/api/v1/notifications', { id, url: 'https://hooks.example.com/same' })
        .expect(201);
      const res = await app().patch(`/api/v1/notifications/${id}`, {}).expect(200);
      expect(res.body).toEqual(created.body);
    });

    it('answers 404 "Notification not found" for an unknown id, after checking the body', async () => {
      expectError(
        await app().patch(`/api/v1/notifications/${uid('missing')}`, { url: 'https://hooks.example.com/x' }),
        404,
        'Notification not found',
      );
      expectError(
        await app().patch(`/api/v1/notifications/${uid('missing')}`, { url: 7 }),
        400,
        'url must be a string holding an http or https URL',
      );
    });

    it.each([
      ['unknown field', { name: 'x' }, 'name is not an allowed field'],
      ['id in the body', { id: 'other' }, 'id is not an allowed field'],
      ['metadata url', { url: 'http://[::ffff:a9fe:a9fe]/' }, 'url points to a cloud metadata address'],
      ['type email', { type: 'email' }, 'type must be one of: webhook'],
    ])('refuses %s with a 400', async (_case, body, message) => {
      const id = uid('n');
      await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/p' }).expect(201);
      expectError(await app().patch(`/api/v1/notifications/${id}`, body), 400, message);
    });
  });

  describe('GET and DELETE', () => {
    it('GET of an unknown or impossible id → 404', async () => {
      expectError(await app().get(`/api/v1/notifications/${uid('missing')}`), 404, 'Notification not found');
      expectError(await app().get(`/api/v1/notifications/${'x'.repeat(300)}`), 404, 'Notification not found');
    });

    it('DELETE removes the notification: 200, then 404', async () => {
      const id = uid('n');
      await app().post('/api/v1/notifications', { id, url: 'https://hooks.example.com/del' }).expect(201);
      const res = await app().delete(`/api/v1/notifications/${id}`).expect(200);
      expect(res.body).toEqual(successBody('Notification deleted successfully'));
      expect((await app().delete(`/api/v1/notifications/${id}`)).body).toEqual(
        errorBody('Notification not found'),
      );
      expectError(await app().get(`/api/v1/notifications/${id}`), 404, 'Notification not found');
    });
  });
});

describe('notifications list pagination', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const ids: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 23; i++) {
      const id = uid(`p-${String(i).padStart(2, '0')}`);
      ids.push(id);
      await app()
        .post('/api/v1/notifications', { id, url: `https://hooks.example.com/${i}` })
        .expect(201);
    }
  });

  it('defaults to page 1 of 10 with the true total', async () => {
    const res = await app().get('/api/v1/notifications').expect(200);
    expect(res.body.pagination).toEqual({ current_page: 1, per_page: 10, total_items: 23 });
    expect(res.body.data.map((n: { id: string }) => n.id)).toEqual(ids.slice(0, 10));
  });

  it('walks every page in creation order without gaps or repeats', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await app().get(`/api/v1/notifications?page=${page}&per_page=10`).expect(200);
      expect(res.body.pagination).toEqual({ current_page: page, per_page: 10, total_items: 23 });
      seen.push(...res.body.data.map((n: { id: string }) => n.id));
    }
    expect(seen).toEqual(ids);
  });

  it('answers a page past the end with an empty list and the true total', async () => {
    const res = await app().get('/api/v1/notifications?page=9&per_page=5').expect(200);
    expect(res.body).toEqual({
      success: true,
      data: [],
      error: null,
      pagination: { current_page: 9, per_page: 5, total_items: 23 },
    });
  });

  it('accepts page 999999999, the last, as a page past the end', async () => {
    const res = await app().get('/api/v1/notifications?page=999999999&per_page=100').expect(200);
    expect(res.body).toEqual({
      success: true,
      data: [],
      error: null,
      pagination: { current_page: 999999999, per_page: 100, total_items: 23 },
    });
  });

  it('accepts per_page 100 and returns everything', async () => {
    const res = await app().get('/api/v1/notifications?per_page=100').expect(200);
    expect(res.body.data).toHaveLength(23);
  });

  it.each([
    ['page=0', 'page must be a whole number of at least 1'],
    ['page=abc', 'page must be a whole number of at least 1'],
    ['page=1.5', 'page must be a whole number of at least 1'],
    ['page=-1', 'page must be a whole number of at least 1'],
    // A whole number past the bound is told the bound (docs/reference/pagination.md#11-parameters).
    ['page=1000000000', 'page must be a whole number from 1 to 999999999'],
    [`page=${'9'.repeat(400)}`, 'page must be a whole number from 1 to 999999999'],
    ['per_page=0', 'per_page must be a whole number from 1 to 100'],
    ['per_page=101', 'per_page must be a whole number from 1 to 100'],
    ['per_page=1e2', 'per_page must be a whole number from 1 to 100'],
    ['sort=id', 'sort is not an allowed field'],
  ])('refuses %s with a 400 naming the parameter', async (query, message) => {
    expectError(await app().get(`/api/v1/notifications?${query}`), 400, message);
  });
});
