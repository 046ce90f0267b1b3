import { randomBytes } from 'node:crypto';
import { successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { useTestApp } from '../../support/test-app';
import { uid } from '../../factories';

describe('signing keys at rest with STORAGE_ENCRYPTION_KEY', () => {
  const handle = useTestApp({ STORAGE_ENCRYPTION_KEY: secrets.add(randomBytes(32).toString('base64')) });

  it('stores the key encrypted: not in the database, still reported as set', async () => {
    const signingKey = secrets.add(`sk-${randomBytes(24).toString('hex')}`);
    const id = uid('enc');
    await handle.current
      .post('/api/v1/notifications', { id, url: 'https://hooks.example.com/enc', signing_key: signingKey })
      .expect(201);
    const updated = secrets.add(`sk-${randomBytes(24).toString('hex')}`);
    await handle.current.patch(`/api/v1/notifications/${id}`, { signing_key: updated }).expect(200);
    const dump = await handle.database.dump();
    expect(dump).toContain(id);
    expect(dump).toContain('enc:v1:');
    expect([dump.includes(signingKey), dump.includes(updated)]).toEqual([false, false]);
    const res = await handle.current.get(`/api/v1/notifications/${id}`).expect(200);
    expect(res.body).toEqual(
      successBody({ id, type: 'webhook', url: 'https://hooks.example.com/enc', has_signing_key: true }),
    );
  });
});

describe('signing keys without STORAGE_ENCRYPTION_KEY', () => {
  const handle = useTestApp();

  it('are kept as given (the documented default) and never returned', async () => {
    const signingKey = secrets.add(`sk-${randomBytes(24).toString('hex')}`);
    const res = await handle.current
      .post('/api/v1/notifications', { url: 'https://hooks.example.com/p', signing_key: signingKey })
      .expect(201);
    expect(res.text).not.toContain(signingKey);
    expect(await handle.database.dump()).toContain(signingKey);
  });
});
