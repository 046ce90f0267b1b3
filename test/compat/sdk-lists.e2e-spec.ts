import { SignerTypeRequest } from '@openzeppelin/relayer-sdk';
import { defaultCatalogue, useTestApp } from '../support/test-app';
import { KEY1, NETWORKS } from '../support/test-catalogue';
import { NETWORK, signerKey } from '../factories';
import {
  encryptionKey,
  type Sdk,
  sdkFor,
  refusal,
  refused,
  answer,
  addressesOf,
  SDK_NETWORK_TYPE,
  KEY1_SIGNER,
} from './sdk';

describe('Lists: listRelayers, listNotifications, listSigners, listNetworks', () => {
  const handle = useTestApp({ STORAGE_ENCRYPTION_KEY: encryptionKey });
  const sdk = () => sdkFor(handle.current);
  const relayers: object[] = [];
  const notifications: object[] = [];
  const apiSignerKey = signerKey();

  beforeAll(async () => {
    await sdk().signers.createSigner({
      id: 'api-signer',
      type: SignerTypeRequest.PLAIN,
      config: { key: apiSignerKey },
    });
    for (const [i, type] of (['evm', 'solana', 'stellar'] as const).entries()) {
      notifications.push(
        (
          await sdk().notifications.createNotification({
            id: `hook-${i}`,
            url: `https://hooks.example.com/${i}`,
          })
        ).data.data ?? {},
      );
      relayers.push(
        (
          await sdk().relayers.createRelayer({
            id: `relayer-${i}`,
            name: `relayer ${i}`,
            network: NETWORK[type],
            network_type: SDK_NETWORK_TYPE[type],
            paused: false,
            signer_id: KEY1.id,
          })
        ).data.data ?? {},
      );
    }
  });

  const page = (data: unknown[], current_page: number, per_page: number, total_items: number) => ({
    success: true,
    data,
    error: null,
    pagination: { current_page, per_page, total_items },
  });

  it('listRelayers: the default page, a later page, a page past the end', async () => {
    expect(answer(await sdk().relayers.listRelayers())).toEqual({
      status: 200,
      body: page(relayers, 1, 10, 3),
    });
    expect((await sdk().relayers.listRelayers(2, 2)).data).toEqual(page(relayers.slice(2), 2, 2, 3));
    expect((await sdk().relayers.listRelayers(4, 1)).data).toEqual(page([], 4, 1, 3));
  });

  it('listNotifications: the default page, a later page, a page past the end', async () => {
    expect(answer(await sdk().notifications.listNotifications())).toEqual({
      status: 200,
      body: page(notifications, 1, 10, 3),
    });
    expect((await sdk().notifications.listNotifications(2, 2)).data).toEqual(
      page(notifications.slice(2), 2, 2, 3),
    );
    expect((await sdk().notifications.listNotifications(3, 5)).data).toEqual(page([], 3, 5, 3));
  });

  it('listSigners: the file signers in file order, then those created through the API', async () => {
    const first = await sdk().signers.listSigners(1, 2);
    expect(answer(first)).toEqual({
      status: 200,
      body: page(
        [
          KEY1_SIGNER,
          {
            id: 'pool-0000',
            type: 'local',
            config: {},
            addresses: addressesOf(defaultCatalogue().keyOf('pool-0000')),
          },
        ],
        1,
        2,
        258,
      ),
    });
    const last = await sdk().signers.listSigners(129, 2);
    expect(last.data).toEqual(
      page(
        [
          {
            id: 'pool-0255',
            type: 'local',
            config: {},
            addresses: addressesOf(defaultCatalogue().keyOf('pool-0255')),
          },
          { id: 'api-signer', type: 'local', config: {}, addresses: addressesOf(apiSignerKey) },
        ],
        129,
        2,
        258,
      ),
    );
  });

  it('listNetworks: every network as NetworkResponse, in catalogue order; pages', async () => {
    expect(answer(await sdk().networks.listNetworks())).toEqual({
      status: 200,
      body: page(NETWORKS, 1, 10, 6),
    });
    expect((await sdk().networks.listNetworks(2, 4)).data).toEqual(page(NETWORKS.slice(4), 2, 4, 6));
  });

  it.each([
    ['listRelayers', (api: Sdk) => api.relayers.listRelayers(0, 10)],
    ['listNotifications', (api: Sdk) => api.notifications.listNotifications(0, 10)],
    ['listSigners', (api: Sdk) => api.signers.listSigners(0, 10)],
    ['listNetworks', (api: Sdk) => api.networks.listNetworks(0, 10)],
  ])('%s(0, 10) → 400 naming page', async (_method, call) => {
    expect(await refusal(call(sdk()))).toEqual(refused(400, 'page must be a whole number of at least 1'));
  });

  it.each([
    ['listRelayers', (api: Sdk) => api.relayers.listRelayers(1, 101)],
    ['listNotifications', (api: Sdk) => api.notifications.listNotifications(1, 101)],
    ['listSigners', (api: Sdk) => api.signers.listSigners(1, 101)],
    ['listNetworks', (api: Sdk) => api.networks.listNetworks(1, 101)],
  ])('%s(1, 101) → 400 naming per_page', async (_method, call) => {
    expect(await refusal(call(sdk()))).toEqual(refused(400, 'per_page must be a whole number from 1 to 100'));
  });
});
