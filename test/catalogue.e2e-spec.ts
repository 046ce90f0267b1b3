import { expectError } from './support/envelope';
import { secrets } from './support/secrets';
import { defaultCatalogue, useTestApp } from './support/test-app';
import { KEY1, RPC_SECRET } from './support/test-catalogue';

describe('networks and signers catalogue over HTTP', () => {
  const handle = useTestApp();
  const app = () => handle.current;

  it('GET /api/v1/networks lists every configured network with masked RPC URLs', async () => {
    const res = await app().get('/api/v1/networks?per_page=100').expect(200);
    expect(res.body).toEqual({
      success: true,
      error: null,
      pagination: { current_page: 1, per_page: 100, total_items: 6 },
      data: [
        {
          type: 'evm',
          network: 'sepolia',
          chain_id: 11155111,
          is_testnet: true,
          rpc_urls: ['https://rpc.example.com/v2/***'],
        },
        {
          type: 'evm',
          network: 'mainnet',
          chain_id: 1,
          is_testnet: false,
          rpc_urls: ['https://rpc.example.com/***'],
        },
        { type: 'solana', network: 'devnet', is_testnet: true, rpc_urls: ['https://rpc.example.com/***'] },
        {
          type: 'solana',
          network: 'mainnet-beta',
          is_testnet: false,
          rpc_urls: ['https://rpc.example.com/***'],
        },
        {
          type: 'stellar',
          network: 'testnet',
          passphrase: 'Test SDF Network ; September 2015',
          is_testnet: true,
          rpc_urls: ['https://rpc.example.com/***'],
        },
        {
          type: 'stellar',
          network: 'mainnet',
          passphrase: 'Public Global Stellar Network ; September 2015',
          is_testnet: false,
          rpc_urls: ['https://rpc.example.com/***'],
        },
      ],
    });
    expect(res.text).not.toContain(RPC_SECRET);
  });

  it('pages networks', async () => {
    const res = await app().get('/api/v1/networks?page=2&per_page=4').expect(200);
    expect(res.body.pagination).toEqual({ current_page: 2, per_page: 4, total_items: 6 });
    expect(res.body.data.map((n: { network: string }) => n.network)).toEqual(['testnet', 'mainnet']);
  });

  it('GET /api/v1/signers lists ids and addresses per network type, never key material', async () => {
    const res = await app().get('/api/v1/signers?per_page=2').expect(200);
    expect(res.body.pagination).toEqual({ current_page: 1, per_page: 2, total_items: 257 });
    expect(res.body.data[0]).toEqual({
      id: KEY1.id,
      type: 'plain',
      addresses: {
        evm: KEY1.evm,
        solana: KEY1.solana,
        stellar: KEY1.stellar,
      },
    });
    expect(res.body.data[1]).toEqual({
      id: 'pool-0000',
      type: 'plain',
      addresses: {
        evm: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        solana: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/),
        stellar: expect.stringMatching(/^G[A-Z2-7]{55}$/),
      },
    });
    const all = await app().get('/api/v1/signers?per_page=100').expect(200);
    expect(secrets.foundIn(all.text)).toEqual([]);
    expect(all.text).not.toContain(defaultCatalogue().keyOf('pool-0001'));
  });

  it('both need the API key', async () => {
    expectError(await app().get('/api/v1/networks', false), 401, 'Unauthorized');
    expectError(await app().get('/api/v1/signers', false), 401, 'Unauthorized');
  });
});
