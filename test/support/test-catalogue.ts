import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { secrets } from './secrets';

/**
 * The private key 0x…01 (not a secret) and its addresses: the EVM one is the published vector;
 * Solana and Stellar were checked against the independent encoders of shared/conformance.
 */
export const KEY1 = {
  id: 'key-one',
  hex: '0000000000000000000000000000000000000000000000000000000000000001',
  evm: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
  solana: '6ASf5EcmmEHTgDJ4X4ZT5vT6iHVJBXPg5AN5YoTCpGWt',
  stellar: 'GBGLLK7WVV47X5NLXTFPZQTJ3BONEZI62S4ILNMGT4SBV3PQUW5CTECA',
};

export const RPC_SECRET = secrets.add(`rpcsecret${randomBytes(8).toString('hex')}`);

export const TEST_NETWORKS = [
  {
    type: 'evm',
    network: 'sepolia',
    chain_id: 11155111,
    rpc_urls: [`https://user:${RPC_SECRET}@rpc.example.com/v2/${RPC_SECRET}`],
    is_testnet: true,
  },
  { type: 'evm', network: 'mainnet', chain_id: 1, rpc_urls: ['https://rpc.example.com/eth'] },
  {
    type: 'solana',
    network: 'devnet',
    rpc_urls: ['https://rpc.example.com/solana-devnet'],
    is_testnet: true,
  },
  { type: 'solana', network: 'mainnet-beta', rpc_urls: ['https://rpc.example.com/solana'] },
  {
    type: 'stellar',
    network: 'testnet',
    passphrase: 'Test SDF Network ; September 2015',
    rpc_urls: ['https://rpc.example.com/stellar-testnet'],
    is_testnet: true,
  },
  {
    type: 'stellar',
    network: 'mainnet',
    passphrase: 'Public Global Stellar Network ; September 2015',
    rpc_urls: ['https://rpc.example.com/stellar'],
  },
];

/** TEST_NETWORKS as the API answers them (NetworkResponse), URLs masked. */
export const NETWORKS = [
  {
    id: 'evm:sepolia',
    name: 'sepolia',
    network_type: 'evm',
    rpc_urls: [{ url: 'https://rpc.example.com/v2/***', weight: 100 }],
    is_testnet: true,
    chain_id: 11155111,
  },
  {
    id: 'evm:mainnet',
    name: 'mainnet',
    network_type: 'evm',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: false,
    chain_id: 1,
  },
  {
    id: 'solana:devnet',
    name: 'devnet',
    network_type: 'solana',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: true,
  },
  {
    id: 'solana:mainnet-beta',
    name: 'mainnet-beta',
    network_type: 'solana',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: false,
  },
  {
    id: 'stellar:testnet',
    name: 'testnet',
    network_type: 'stellar',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: true,
    passphrase: 'Test SDF Network ; September 2015',
  },
  {
    id: 'stellar:mainnet',
    name: 'mainnet',
    network_type: 'stellar',
    rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
    is_testnet: false,
    passphrase: 'Public Global Stellar Network ; September 2015',
  },
];

/** Writes a configuration file (`networks`, `signers`, ...) as config.json in a fresh folder; answers its path. */
export function writeConfigFile(contents: object): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-catalogue-')), 'config.json');
  fs.writeFileSync(file, JSON.stringify(contents));
  return file;
}

export interface TestCatalogue {
  readonly file: string;
  /** Ids of pool signers, each with a random key, for relayers that need a free signer. */
  readonly pool: string[];
  /** The hex key of a signer id of this catalogue. */
  keyOf(id: string): string;
  nextSigner(): string;
}

/** Writes a catalogue with the test networks, KEY1 and a pool of random signers (keys registered as secrets). */
export function writeTestCatalogue(poolSize = 256): TestCatalogue {
  const keys = new Map<string, string>([[KEY1.id, KEY1.hex]]);
  const pool: string[] = [];
  for (let i = 0; i < poolSize; i++) {
    const id = `pool-${String(i).padStart(4, '0')}`;
    keys.set(id, secrets.add(randomBytes(32).toString('hex')));
    pool.push(id);
  }
  const file = writeConfigFile({
    networks: TEST_NETWORKS,
    signers: [...keys].map(([id, hex]) => ({
      id,
      type: 'plain',
      config: { key: { type: 'plain', value: hex } },
    })),
  });
  let next = 0;
  return {
    file,
    pool,
    keyOf: (id) => keys.get(id) ?? '',
    nextSigner: () => {
      if (next >= pool.length) throw new Error('test signer pool exhausted');
      return pool[next++];
    },
  };
}
