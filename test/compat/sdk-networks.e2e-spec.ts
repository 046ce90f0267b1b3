import { type UpdateNetworkRequest } from '@openzeppelin/relayer-sdk';
import { randomBytes } from 'node:crypto';
import { successBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { useTestApp } from '../support/test-app';
import { NETWORKS } from '../support/test-catalogue';
import { sdkFor, refusal, refused, answer } from './sdk';

describe('Networks: NetworksApi get and update (docs/reference/networks-and-signers.md#4-networks)', () => {
  const handle = useTestApp();
  const sdk = () => sdkFor(handle.current);

  it.each(NETWORKS.map((network) => [network.id, network] as const))(
    'getNetwork(%s) → 200 with the NetworkResponse, RPC URLs masked',
    async (id, network) => {
      expect(answer(await sdk().networks.getNetwork(id))).toEqual({
        status: 200,
        body: successBody(network),
      });
    },
  );

  it.each(['evm:atlantis', 'sepolia', 'bitcoin:mainnet'])('getNetwork(%s) → 404', async (id) => {
    expect(await refusal(sdk().networks.getNetwork(id))).toEqual(
      refused(404, `Network with ID '${id}' not found`),
    );
  });

  it('updateNetwork with URLs as strings and {url, weight} → 200; getNetwork serves the new list', async () => {
    const rpcKey = secrets.add(`key${randomBytes(8).toString('hex')}`);
    const updated = await sdk().networks.updateNetwork('evm:mainnet', {
      rpc_urls: [
        `https://eth.example.com/v2/${rpcKey}`,
        { url: 'https://backup.example.com/eth', weight: 30 },
      ],
    });
    const expected = {
      ...NETWORKS[1],
      rpc_urls: [
        { url: 'https://eth.example.com/v2/***', weight: 100 },
        { url: 'https://backup.example.com/***', weight: 30 },
      ],
    };
    expect(answer(updated)).toEqual({ status: 200, body: successBody(expected) });
    expect(JSON.stringify(updated.data)).not.toContain(rpcKey);
    expect((await sdk().networks.getNetwork('evm:mainnet')).data).toEqual(updated.data);
  });

  it('updateNetwork with the masked URL read back keeps the stored one; a mask that stands for none → 400', async () => {
    const read = (await sdk().networks.getNetwork('stellar:testnet')).data.data?.rpc_urls ?? [];
    const updated = await sdk().networks.updateNetwork('stellar:testnet', {
      rpc_urls: [{ url: 'https://soroban.example.com/rpc', weight: 10 }, ...read],
    });
    expect(updated.data.data?.rpc_urls).toEqual([
      { url: 'https://soroban.example.com/***', weight: 10 },
      { url: 'https://rpc.example.com/***', weight: 100 },
    ]);
    expect(
      await refusal(
        sdk().networks.updateNetwork('stellar:testnet', {
          rpc_urls: [{ url: 'https://unknown.example.com/***', weight: 100 }],
        }),
      ),
    ).toEqual(refused(400, 'rpc_urls[0].url is a masked URL that matches no stored URL: send the full URL'));
  });

  const RPC_LIST = 'rpc_urls must be an array of 1 to 20 URLs or {url, weight} objects';
  it.each<[string, UpdateNetworkRequest, string]>([
    ['no URL', { rpc_urls: [] }, RPC_LIST],
    [
      'a weight over 100',
      { rpc_urls: [{ url: 'https://rpc.example.com/a', weight: 101 }] },
      'rpc_urls[0].weight must be a whole number from 0 to 100',
    ],
    [
      'a metadata address',
      { rpc_urls: ['http://169.254.169.254/latest'] },
      'rpc_urls[0].url points to a cloud metadata address',
    ],
    ['21 URLs', { rpc_urls: Array.from({ length: 21 }, (_, i) => `https://rpc${i}.example.com`) }, RPC_LIST],
    [
      'another field',
      { rpc_urls: ['https://rpc.example.com/a'], chain_id: 5 },
      'chain_id is not an allowed field',
    ],
  ])('updateNetwork with %s → 400 naming it; nothing changes', async (_case, body, message) => {
    expect(await refusal(sdk().networks.updateNetwork('solana:devnet', body))).toEqual(refused(400, message));
    expect((await sdk().networks.getNetwork('solana:devnet')).data).toEqual(successBody(NETWORKS[2]));
  });

  it('updateNetwork of an unknown id → 404', async () => {
    expect(
      await refusal(
        sdk().networks.updateNetwork('evm:atlantis', { rpc_urls: ['https://rpc.example.com/a'] }),
      ),
    ).toEqual(refused(404, "Network with ID 'evm:atlantis' not found"));
  });
});
