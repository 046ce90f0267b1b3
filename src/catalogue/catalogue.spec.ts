import { inspect } from 'node:util';
import * as derivation from './address-derivation';
import { Catalogue, SecretKey, UnknownSignerError } from './catalogue';
import type { CatalogueNetwork } from './catalogue.types';

const KEY_1 = `${'00'.repeat(31)}01`;
const KEY_2 = `${'00'.repeat(31)}02`;
const RFC8032_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const keyOf = (hex: string): SecretKey => new SecretKey(Buffer.from(hex, 'hex'));

const NETWORKS: CatalogueNetwork[] = [
  {
    type: 'evm',
    network: 'sepolia',
    chain_id: 11155111,
    rpc_urls: [{ url: 'https://rpc.example/sepolia', weight: 100 }],
    is_testnet: true,
  },
  {
    type: 'solana',
    network: 'devnet',
    rpc_urls: [{ url: 'https://rpc.example/devnet', weight: 100 }],
    is_testnet: true,
  },
  {
    type: 'stellar',
    network: 'testnet',
    passphrase: 'Test SDF Network ; September 2015',
    rpc_urls: [{ url: 'https://rpc.example/stellar', weight: 100 }],
    is_testnet: true,
  },
  {
    type: 'evm',
    network: 'mainnet',
    chain_id: 1,
    rpc_urls: [{ url: 'https://rpc.example/mainnet', weight: 100 }],
    is_testnet: false,
  },
];

function buildCatalogue(): Catalogue {
  return new Catalogue({
    networks: NETWORKS,
    signers: [
      { id: 'key-1', type: 'plain', key: keyOf(KEY_1) },
      { id: 'key-2', type: 'local', key: keyOf(KEY_2) },
      { id: 'rfc', type: 'plain', key: keyOf(RFC8032_SEED) },
    ],
  });
}

afterEach(() => jest.restoreAllMocks());

describe('Catalogue networks', () => {
  const catalogue = buildCatalogue();

  it.each([
    ['evm', 'sepolia', 11155111],
    ['evm', 'mainnet', 1],
  ] as const)('finds %s %s (chain %d)', (type, name, chainId) => {
    expect(catalogue.findNetwork(type, name)).toMatchObject({ type, network: name, chain_id: chainId });
  });

  it.each([
    ['solana', 'sepolia'],
    ['evm', 'devnet'],
    ['stellar', 'Testnet'],
  ] as const)('does not find %s %s', (type, name) => {
    expect(catalogue.findNetwork(type, name)).toBeUndefined();
  });

  it('lists networks in config order, all or by type', () => {
    expect(catalogue.listNetworks().map((n) => `${n.type}/${n.network}`)).toEqual([
      'evm/sepolia',
      'solana/devnet',
      'stellar/testnet',
      'evm/mainnet',
    ]);
    expect(catalogue.listNetworks('evm').map((n) => n.network)).toEqual(['sepolia', 'mainnet']);
  });

  it('hands out networks that cannot be changed', () => {
    const network = catalogue.findNetwork('evm', 'sepolia');
    expect(Object.isFrozen(network)).toBe(true);
    expect(Object.isFrozen(network?.rpc_urls)).toBe(true);
  });
});

describe('Catalogue signers', () => {
  it.each([
    ['key-1', 'evm', '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'],
    ['key-2', 'evm', '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF'],
    ['rfc', 'solana', 'FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z'],
    ['rfc', 'stellar', 'GDLVVGABQKYQVN6VJP7NHSLEA45A5YLS6PNKMIZFV4BBU2HXA5IRVHUR'],
  ] as const)('%s has %s address %s', (id, type, address) => {
    const catalogue = buildCatalogue();
    expect(catalogue.signerSuits(id, type)).toBe(true);
    expect(catalogue.signerAddress(id, type)).toBe(address);
  });

  it('knows which signers exist', () => {
    const catalogue = buildCatalogue();
    expect(catalogue.hasSigner('key-1')).toBe(true);
    expect(catalogue.hasSigner('nope')).toBe(false);
    expect(catalogue.signerSuits('nope', 'evm')).toBe(false);
    expect(() => catalogue.signerAddress('nope', 'evm')).toThrow(UnknownSignerError);
    expect(() => catalogue.signerAddress('nope', 'evm')).toThrow('Signer with ID nope not found');
  });

  it('lists signers with their addresses and nothing else', () => {
    const signers = buildCatalogue().listSigners();
    expect(signers.map((s) => s.id)).toEqual(['key-1', 'key-2', 'rfc']);
    expect(signers[0]).toEqual({
      id: 'key-1',
      type: 'plain',
      addresses: {
        evm: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
        solana: expect.any(String),
        stellar: expect.stringMatching(/^G[A-Z2-7]{55}$/),
      },
    });
  });

  it('derives an address on first use only, then serves it from the cache', () => {
    const derive = jest.spyOn(derivation, 'deriveAddress');
    const catalogue = buildCatalogue();
    expect(derive).not.toHaveBeenCalled();

    catalogue.signerAddress('key-1', 'evm');
    catalogue.signerAddress('key-1', 'evm');
    catalogue.listSigners();
    expect(derive.mock.calls.filter(([type]) => type === 'evm')).toHaveLength(3); // once per signer
    expect(derive).toHaveBeenCalledTimes(9); // 3 signers x 3 network types, each once
  });
});

describe('Keys never leave the catalogue', () => {
  const keyHexes = [KEY_1, KEY_2, RFC8032_SEED];

  function expectNoKey(text: string): void {
    for (const key of keyHexes) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(Buffer.from(key, 'hex').toString('base64'));
    }
    // A Uint8Array printed by util.inspect or JSON would show as a list of byte values.
    expect(text).not.toMatch(/157,\s*97,\s*177/);
  }

  it.each([
    ['JSON.stringify', (value: unknown) => JSON.stringify(value)],
    [
      'util.inspect',
      (value: unknown) => inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    ],
    ['String()', (value: unknown) => String(value)],
  ])('%s of the catalogue, its signer list and a key shows no key material', (_name, render) => {
    const catalogue = buildCatalogue();
    catalogue.listSigners();
    for (const value of [catalogue, catalogue.listSigners(), keyOf(RFC8032_SEED), { key: keyOf(KEY_1) }]) {
      expectNoKey(render(value));
    }
  });

  it('renders a SecretKey as [redacted]', () => {
    const key = keyOf(KEY_1);
    expect(JSON.stringify({ key })).toBe('{"key":"[redacted]"}');
    expect(inspect(key)).toBe('[redacted]');
    expect(String(key)).toBe('[redacted]');
    expect(Object.keys(key)).toEqual([]);
  });

  it('holds the bytes where no reflection reaches them: no own property, nothing shown without the custom inspect', () => {
    const key = keyOf(KEY_1);
    expect(Reflect.ownKeys(key)).toEqual([]);
    expect(inspect(key, { customInspect: false, showHidden: true, depth: Infinity })).toBe('SecretKey {}');
    expect(structuredClone(key)).toEqual({});
  });

  it('copies the key: clearing the caller buffer afterwards changes nothing', () => {
    const bytes = Buffer.from(KEY_1, 'hex');
    const catalogue = new Catalogue({
      networks: [],
      signers: [{ id: 'k', type: 'plain', key: new SecretKey(bytes) }],
    });
    bytes.fill(0);
    expect(catalogue.signerAddress('k', 'evm')).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
  });
});
