// `npm run demo`: the service on a fresh embedded database with a fleet of a few hundred relayers, as a
// new operator would meet one: a dozen networks served by local RPC nodes that answer for every
// address, thresholds some relayers are under, relayers paused by their owners, relayers whose own RPC
// URL is dead (disabled by their checks, balance unknown), and eight webhook targets of which one
// fails every delivery (it pauses itself), one fails about half, one is slow and one was paused by its
// operator. Everything runs on loopback: nothing leaves the machine. It prints the console's address
// and the admin key, then keeps the nodes answering (balances drift, so checks keep finding news) until
// Ctrl-C. docs/console.md#7-the-demo-fleet tells what to look for.
//
//   npm run demo                       # 300 relayers on http://127.0.0.1:8080/console/
//   npm run demo -- --relayers 120 --port 8090
//   npm run demo -- --seed-only        # seed, wait for the first checks, print the counts, stop
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EvmRpc } from '../test/support/evm-rpc';
import { SolanaRpc } from '../test/support/solana-rpc';
import { StellarRpc } from '../test/support/stellar-rpc';

const ROOT = path.resolve(__dirname, '..');
const MAIN_JS = path.join(ROOT, 'dist', 'src', 'main.js');

const { values: options } = parseArgs({
  options: {
    relayers: { type: 'string', default: '300' },
    port: { type: 'string', default: '8080' },
    'seed-only': { type: 'boolean', default: false },
  },
});
const RELAYERS = Number(options.relayers);
const PORT = Number(options.port);
if (!Number.isInteger(RELAYERS) || RELAYERS < 1 || RELAYERS > 1200)
  throw new Error('--relayers must be an integer from 1 to 1200');

/** The networks of config/config.json, each served here; the chain ids the EVM nodes answer. */
const EVM_NETWORKS: ReadonlyArray<readonly [string, number]> = [
  ['mainnet', 1],
  ['sepolia', 11155111],
  ['base', 8453],
  ['base-sepolia', 84532],
  ['arbitrum-one', 42161],
  ['optimism', 10],
  ['polygon', 137],
];
const SOLANA_NETWORKS = ['mainnet-beta', 'devnet', 'testnet'];
const STELLAR_NETWORKS: ReadonlyArray<readonly [string, string]> = [
  ['mainnet', 'Public Global Stellar Network ; September 2015'],
  ['testnet', 'Test SDF Network ; September 2015'],
];
const NETWORK_COUNT = EVM_NETWORKS.length + SOLANA_NETWORKS.length + STELLAR_NETWORKS.length;
const SIGNERS = Math.ceil(RELAYERS / NETWORK_COUNT);

/** Default balance alerts, in base units: 0.05 ETH on the EVM mainnets, 0.5 SOL, 50 XLM. */
const NETWORK_ALERTS: Readonly<Record<string, bigint>> = {
  'evm:mainnet': 50_000_000_000_000_000n,
  'evm:base': 20_000_000_000_000_000n,
  'evm:arbitrum-one': 20_000_000_000_000_000n,
  'evm:optimism': 20_000_000_000_000_000n,
  'evm:polygon': 5_000_000_000_000_000_000n,
  'solana:mainnet-beta': 500_000_000n,
  'stellar:mainnet': 500_000_000n,
};

const PURPOSES = ['payments', 'payouts', 'nft-mint', 'bridge', 'gasless', 'settlement', 'rewards', 'oracle'];

/** The k-th relayer's network: the networks in turn. */
function networkOf(k: number): { type: 'evm' | 'solana' | 'stellar'; network: string } {
  const i = k % NETWORK_COUNT;
  if (i < EVM_NETWORKS.length) return { type: 'evm', network: EVM_NETWORKS[i][0] };
  const j = i - EVM_NETWORKS.length;
  if (j < SOLANA_NETWORKS.length) return { type: 'solana', network: SOLANA_NETWORKS[j] };
  return { type: 'stellar', network: STELLAR_NETWORKS[j - SOLANA_NETWORKS.length][0] };
}

/** One in 11 paused by its owner; one in 17 given a custom RPC URL nobody answers (disabled, unknown). */
const isPaused = (k: number): boolean => k % 11 === 5;
const hasDeadRpc = (k: number): boolean => k % 17 === 9;

/** A balance in base units: about one in seven under its network's alert, the others 1.2 to 21 times it. */
function balanceOf(k: number, type: 'evm' | 'solana' | 'stellar', network: string): bigint {
  const scale = NETWORK_ALERTS[`${type}:${network}`] ?? TYPICAL_ALERT[type];
  if (k % 7 === 3) return (scale * BigInt((k % 7) + 1)) / 10n;
  return (scale * BigInt(120 + ((k * 7919) % 2000))) / 100n;
}

/** The scale of balances on a network without an alert: 0.05 ETH, 0.5 SOL, 50 XLM. */
const TYPICAL_ALERT = { evm: 50_000_000_000_000_000n, solana: 500_000_000n, stellar: 500_000_000n } as const;

const TARGETS: ReadonlyArray<{ id: string; path: string; paused?: boolean }> = [
  { id: 'ops-alerts', path: '/ok/ops' },
  { id: 'billing-events', path: '/ok/billing' },
  { id: 'analytics', path: '/slow/analytics' },
  { id: 'compliance-archive', path: '/ok/compliance' },
  { id: 'partner-acme', path: '/fail/acme' },
  { id: 'legacy-hooks', path: '/flaky/legacy' },
  { id: 'staging-mirror', path: '/ok/staging', paused: true },
  { id: 'incident-bridge', path: '/ok/incidents' },
];

/** The webhook receiver every target points at: its path says how it answers. */
function startReceiver(): Promise<http.Server> {
  let flaky = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = req.url ?? '/';
      if (url.startsWith('/fail/')) res.writeHead(500).end('upstream exploded');
      else if (url.startsWith('/flaky/')) res.writeHead(flaky++ % 2 === 0 ? 502 : 200).end();
      else if (url.startsWith('/slow/')) setTimeout(() => res.writeHead(200).end(), 900);
      else setTimeout(() => res.writeHead(204).end(), 15 + Math.floor(Math.random() * 60));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (server: http.Server): number => (server.address() as { port: number }).port;

interface Answer {
  status: number;
  body: { data?: unknown; error?: string } | null;
}

function call(key: string, method: string, route: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      `http://127.0.0.1:${PORT}/api/v1${route}`,
      {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Answer['body']) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function must(key: string, method: string, route: string, body?: unknown): Promise<unknown> {
  const answer = await call(key, method, route, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body?.data;
}

async function waitReady(service: ChildProcess): Promise<void> {
  // 120 s: a loaded machine (the tests' CI beside other work) has taken over 60 s.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error(`the service exited with ${service.exitCode}`);
    const ready = await call('', 'GET', '/ready').catch(() => null);
    if (ready?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the service was not ready within 120 s');
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN_JS)) throw new Error('dist/ is missing: run npm run build first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-demo-'));
  const receiver = await startReceiver();
  const evm = await Promise.all(EVM_NETWORKS.map(([, chainId]) => new EvmRpc(chainId).start()));
  const solana = await Promise.all(SOLANA_NETWORKS.map(() => new SolanaRpc().start()));
  const stellar = await Promise.all(
    STELLAR_NETWORKS.map(async ([, passphrase]) => {
      const node = await new StellarRpc().start();
      node.passphrase = passphrase;
      return node;
    }),
  );
  // A port nobody listens on: the dead custom RPC URL.
  const dead = await startReceiver();
  const deadUrl = `http://127.0.0.1:${portOf(dead)}/rpc`;
  await new Promise((resolve) => dead.close(resolve));

  const config = {
    networks: [
      ...EVM_NETWORKS.map(([network, chainId], i) => ({
        type: 'evm',
        network,
        chain_id: chainId,
        rpc_urls: [evm[i].url(`/${network}`)],
        symbol: network === 'polygon' ? 'POL' : 'ETH',
        is_testnet: network.includes('sepolia'),
      })),
      ...SOLANA_NETWORKS.map((network, i) => ({
        type: 'solana',
        network,
        rpc_urls: [solana[i].url(`/${network}`)],
        is_testnet: network !== 'mainnet-beta',
      })),
      ...STELLAR_NETWORKS.map(([network, passphrase], i) => ({
        type: 'stellar',
        network,
        passphrase,
        rpc_urls: [stellar[i].url(`/${network}`)],
        is_testnet: network === 'testnet',
      })),
    ],
    // Deterministic keys: the same addresses every run. Demo keys, worthless anywhere else.
    signers: Array.from({ length: SIGNERS }, (_, i) => ({
      id: `demo-signer-${String(i + 1).padStart(2, '0')}`,
      type: 'plain',
      config: {
        key: { type: 'plain', value: createHash('sha256').update(`relayer-demo-signer-${i}`).digest('hex') },
      },
    })),
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config, null, 2));

  const key = randomBytes(24).toString('base64url');
  const service = spawn(process.execPath, [MAIN_JS], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      API_KEY: key,
      DATABASE_URL: `sqlite:${path.join(dir, 'relayer.sqlite')}`,
      DATA_DIR: dir,
      CONFIG_FILE: path.join(dir, 'config.json'),
      RPC_BLOCK_PRIVATE_IPS: 'false',
      WEBHOOK_BLOCK_PRIVATE_IPS: 'false',
      RELAYER_HEALTH_CHECK_INTERVAL_SECONDS: '30',
      RELAYER_HEALTH_RETRY_SECONDS: '30',
      // Generous: on a loaded machine a local node's answer has taken over 2 s, and a timed-out check
      // disables a relayer the fleet means healthy. The dead URL is refused at once anyway.
      RPC_TIMEOUT_MS: '10000',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_RETRY_BASE_MS: '2000',
      WEBHOOK_PAUSE_AFTER_FAILURES: '20',
      RATE_LIMIT_REQUESTS_PER_SECOND: '1000',
      RATE_LIMIT_BURST_SIZE: '2000',
      LOG_LEVEL: 'warn',
    },
  });
  const stop = async (code: number): Promise<never> => {
    // A service that has exited already (it failed to start) sends no second 'exit': waiting for
    // one hung the demo for good.
    if (service.exitCode === null && service.signalCode === null) {
      service.kill('SIGTERM');
      await new Promise((resolve) => service.once('exit', resolve));
    }
    await Promise.all([...evm, ...solana, ...stellar].map((node) => node.close()));
    receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  try {
    await waitReady(service);
    await seed(key, receiver, deadUrl, { evm, solana, stellar });
    const summary = await waitForChecks(key);
    process.stdout.write(
      `\nThe demo fleet: ${JSON.stringify(summary)}\n\n` +
        `  Console   http://127.0.0.1:${PORT}/console/\n` +
        `  API key   ${key}   (the administrator; sign in with it)\n` +
        `  Data      ${dir} (removed at exit)\n\n`,
    );
    if (options['seed-only']) return await stop(0);
    process.stdout.write('Balances drift every 30 s. Ctrl-C stops everything.\n');
    drift({ evm, solana, stellar });
  } catch (error) {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
    await stop(1);
  }
}

interface Nodes {
  evm: EvmRpc[];
  solana: SolanaRpc[];
  stellar: StellarRpc[];
}

/** Each relayer's address and balance, by network, as the nodes answer them. */
const accounts: Array<{ k: number; type: 'evm' | 'solana' | 'stellar'; network: string; address: string }> =
  [];
const balances = new Map<string, bigint>();

function setBalance(
  nodes: Nodes,
  type: 'evm' | 'solana' | 'stellar',
  network: string,
  address: string,
  value: bigint,
) {
  balances.set(`${network}/${address}`, value);
  if (type === 'evm')
    nodes.evm[EVM_NETWORKS.findIndex(([name]) => name === network)].setBalance(address, value);
  else if (type === 'solana') nodes.solana[SOLANA_NETWORKS.indexOf(network)].setBalance(address, value);
  else
    nodes.stellar[STELLAR_NETWORKS.findIndex(([name]) => name === network)].setAccount(address, {
      balance: value,
      sequence: 4_000_000_000_000n,
    });
}

async function seed(key: string, receiver: http.Server, deadUrl: string, nodes: Nodes): Promise<void> {
  const hooks = `http://127.0.0.1:${portOf(receiver)}`;
  for (const target of TARGETS)
    await must(key, 'POST', '/notifications', { id: target.id, url: `${hooks}${target.path}` });
  // Two targets hear every relayer's state and balance events besides the ones naming them.
  for (const id of ['ops-alerts', 'incident-bridge'])
    await must(key, 'PUT', `/notifications/${id}/subscription`, {
      events: ['relayer_state_update', 'relayer_low_balance', 'relayer_balance_restored'],
      relayer_ids: ['*'],
    });
  for (const [network, threshold] of Object.entries(NETWORK_ALERTS))
    await must(key, 'PUT', `/networks/${network}/balance-alert`, { threshold: threshold.toString() });

  // The addresses first: each signer's address per network type, so the nodes know every balance
  // before the first check reads it.
  const signers = (await must(key, 'GET', `/signers?per_page=100`)) as Array<{
    id: string;
    addresses: Record<string, string>;
  }>;
  const addressOf = new Map(signers.map((signer) => [signer.id, signer.addresses]));
  const queue = Array.from({ length: RELAYERS }, (_, k) => k);
  const create = async (): Promise<void> => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) {
      const { type, network } = networkOf(k);
      const signerId = `demo-signer-${String(Math.floor(k / NETWORK_COUNT) + 1).padStart(2, '0')}`;
      const address = addressOf.get(signerId)?.[type];
      if (address === undefined) throw new Error(`no ${type} address for ${signerId}`);
      setBalance(nodes, type, network, address, balanceOf(k, type, network));
      accounts.push({ k, type, network, address });
      const purpose = PURPOSES[k % PURPOSES.length];
      await must(key, 'POST', '/relayers', {
        id: `${purpose}-${network}-${Math.floor(k / PURPOSES.length) + 1}`,
        name: `${purpose} ${network} #${Math.floor(k / PURPOSES.length) + 1}`,
        network,
        network_type: type,
        signer_id: signerId,
        paused: isPaused(k),
        notification_id: TARGETS[k % TARGETS.length].id,
        ...(hasDeadRpc(k) ? { custom_rpc_urls: [{ url: deadUrl, weight: 100 }] } : {}),
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, create));
  for (const target of TARGETS.filter((t) => t.paused))
    await must(key, 'POST', `/notifications/${target.id}/pause`);
}

/** Until every relayer has been checked once (or 60 s): the summary then. */
async function waitForChecks(key: string): Promise<unknown> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const summary = (await must(key, 'GET', '/relayers/summary')) as { unchecked: number };
    if (summary.unchecked === 0 || Date.now() > deadline) return summary;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Every 30 s a few relayers spend (one in 40 crosses its alert), so the next checks find news. */
function drift(nodes: Nodes): void {
  let round = 0;
  setInterval(() => {
    round += 1;
    for (const account of accounts.filter((a) => (a.k + round) % 9 === 0)) {
      const now = balances.get(`${account.network}/${account.address}`) ?? 0n;
      setBalance(nodes, account.type, account.network, account.address, (now * 97n) / 100n);
    }
  }, 30_000).unref();
}

void main();
