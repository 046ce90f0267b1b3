import { NotificationType, RelayerNetworkType } from '@openzeppelin/relayer-sdk';
import { randomBytes } from 'node:crypto';
import { successBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { defaultCatalogue, useTestApp } from '../support/test-app';
import { uid, UUID_V4 } from '../factories';
import { sdkFor, refusal, refused, answer } from './sdk';

describe('Notifications: NotificationsApi create, get, update, delete', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);
  const signingKey = () => secrets.add(randomBytes(24).toString('base64url'));

  it('createNotification → 201 with the NotificationResponse (the key never shown); getNotification the same', async () => {
    const id = uid('hook');
    const key = signingKey();
    const created = await sdk().notifications.createNotification({
      id,
      type: NotificationType.WEBHOOK,
      url: 'https://hooks.example.com/sdk',
      signing_key: key,
    });
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({ id, type: 'webhook', url: 'https://hooks.example.com/sdk', has_signing_key: true }),
    });
    expect(JSON.stringify(created.data)).not.toContain(key);
    expect(answer(await sdk().notifications.getNotification(id))).toEqual({
      status: 200,
      body: created.data,
    });
  });

  it('createNotification with only a url → a UUID v4 id, type webhook, no key', async () => {
    const created = await sdk().notifications.createNotification({ url: 'https://hooks.example.com/min' });
    expect(answer(created)).toEqual({
      status: 201,
      body: successBody({
        id: UUID_V4,
        type: 'webhook',
        url: 'https://hooks.example.com/min',
        has_signing_key: false,
      }),
    });
  });

  it('createNotification with a used id → 409', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/a' });
    expect(
      await refusal(sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/b' })),
    ).toEqual(refused(409, 'Notification with this ID already exists'));
  });

  it.each([
    [
      'a short signing key',
      { url: 'https://hooks.example.com/k', signing_key: 'short' },
      'signing_key must be a string of 32 to 1024 characters',
    ],
    ['a metadata address', { url: 'http://169.254.169.254/' }, 'url points to a cloud metadata address'],
    ['an ftp url', { url: 'ftp://files.example.com/x' }, 'url must be an http or https URL'],
    [
      'an unknown field',
      { url: 'https://hooks.example.com/x', events: ['all'] },
      'events is not an allowed field',
    ],
  ] as const)('createNotification with %s → 400 naming it', async (_case, body, message) => {
    expect(await refusal(sdk().notifications.createNotification(body))).toEqual(refused(400, message));
  });

  it('getNotification of an unknown id → 404', async () => {
    expect(await refusal(sdk().notifications.getNotification('no-such-hook'))).toEqual(
      refused(404, 'Notification not found'),
    );
  });

  it('updateNotification: a new url keeps the key; signing_key "" removes it; a new key sets it', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({
      id,
      url: 'https://hooks.example.com/1',
      signing_key: signingKey(),
    });
    const moved = await sdk().notifications.updateNotification(id, { url: 'https://hooks.example.com/2' });
    expect(answer(moved)).toEqual({
      status: 200,
      body: successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: true }),
    });
    const removed = await sdk().notifications.updateNotification(id, { signing_key: '' });
    expect(removed.data).toEqual(
      successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: false }),
    );
    const set = await sdk().notifications.updateNotification(id, { signing_key: signingKey() });
    expect(set.data).toEqual(
      successBody({ id, type: 'webhook', url: 'https://hooks.example.com/2', has_signing_key: true }),
    );
    expect((await sdk().notifications.getNotification(id)).data).toEqual(set.data);
  });

  it('updateNotification of an unknown id → 404; with a bad field → 400', async () => {
    expect(
      await refusal(
        sdk().notifications.updateNotification('no-such-hook', { url: 'https://hooks.example.com/x' }),
      ),
    ).toEqual(refused(404, 'Notification not found'));
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/p' });
    expect(
      await refusal(sdk().notifications.updateNotification(id, { signing_key: 'x'.repeat(31) })),
    ).toEqual(refused(400, 'signing_key must be a string of 32 to 1024 characters'));
    expect(await refusal(sdk().notifications.updateNotification(id, { name: 'x' }))).toEqual(
      refused(400, 'name is not an allowed field'),
    );
  });

  it('deleteNotification → 200 "Notification deleted successfully", then 404', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/del' });
    expect(answer(await sdk().notifications.deleteNotification(id))).toEqual({
      status: 200,
      body: successBody('Notification deleted successfully'),
    });
    expect(await refusal(sdk().notifications.getNotification(id))).toEqual(
      refused(404, 'Notification not found'),
    );
    expect(await refusal(sdk().notifications.deleteNotification(id))).toEqual(
      refused(404, 'Notification not found'),
    );
  });

  it('deleteNotification of one a relayer uses → 409 naming the relayer', async () => {
    const id = uid('hook');
    await sdk().notifications.createNotification({ id, url: 'https://hooks.example.com/used' });
    const relayer = uid('relayer');
    await sdk().relayers.createRelayer({
      id: relayer,
      name: 'uses the hook',
      network: 'sepolia',
      network_type: RelayerNetworkType.EVM,
      paused: false,
      signer_id: defaultCatalogue().nextSigner(),
      notification_id: id,
    });
    expect(await refusal(sdk().notifications.deleteNotification(id))).toEqual(
      refused(409, `Notification is used by relayers: ${relayer}`),
    );
  });
});
