// B4: the floor of a health round. A bare Node script (no framework, no database, no RPC client
// library) that makes, for every relayer address, the JSON-RPC calls of the service's EVM check
// (src/relayer-health/network-checks.ts, checkEvm: eth_chainId, eth_getTransactionCount(address,
// 'pending'), eth_getBalance(address, 'latest')) and the same verdict (the chain id, a nonce, a
// balance of at least min_balance), batched as far as JSON-RPC allows: batch arrays POSTed with
// fetch, the three calls of BATCH_CALLS / 3 relayers in each, IN_FLIGHT POSTs at once. It times the
// round (wall clock) and its CPU (process.cpuUsage, user + system), ROUNDS times in the same process:
// the first warms up the JIT and opens the connections, the last is the floor. Prints one JSON line.
//
// Env: RPC_URL, ADDRESSES_FILE (a JSON array of 0x addresses), CHAIN_ID (31337), MIN_BALANCE (wei,
// 0), BATCH_CALLS (300), IN_FLIGHT (4), ROUNDS (2), ANVIL_PID (optional: the node's own CPU over each
// round, from /proc). The health-round scenario runs it through bench/lib/b4.mjs; alone:
//   RPC_URL=http://127.0.0.1:8545 ADDRESSES_FILE=addresses.json node bench/baselines/b4-rpc.mjs
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

const env = process.env;
const url = env.RPC_URL;
if (!url || !env.ADDRESSES_FILE) {
  console.error('B4: RPC_URL and ADDRESSES_FILE are required');
  process.exit(2);
}
const addresses = JSON.parse(fs.readFileSync(env.ADDRESSES_FILE, 'utf8'));
const chainId = Number(env.CHAIN_ID ?? 31337);
const minBalance = BigInt(env.MIN_BALANCE ?? '0');
const CALLS_PER_CHECK = 3;
const relayersPerRequest = Math.max(1, Math.floor(Number(env.BATCH_CALLS ?? 300) / CALLS_PER_CHECK));
const inFlight = Math.max(1, Number(env.IN_FLIGHT ?? 4));
const rounds = Math.max(1, Number(env.ROUNDS ?? 2));
const anvilPid = env.ANVIL_PID ? Number(env.ANVIL_PID) : null;

/** utime + stime of a process in ms (USER_HZ is 100 on Linux); null without /proc. */
function processCpuMs(pid) {
  if (!pid) return null;
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) * 10;
  } catch {
    return null;
  }
}

/** One batch: the three calls of each relayer of `slice`, ids 3k, 3k+1, 3k+2. */
function batchBody(slice) {
  const calls = [];
  for (let k = 0; k < slice.length; k++) {
    const address = slice[k];
    calls.push(
      { jsonrpc: '2.0', id: 3 * k, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 3 * k + 1, method: 'eth_getTransactionCount', params: [address, 'pending'] },
      { jsonrpc: '2.0', id: 3 * k + 2, method: 'eth_getBalance', params: [address, 'latest'] },
    );
  }
  return JSON.stringify(calls);
}

const hexInteger = (answer) =>
  typeof answer?.result === 'string' && /^0x[0-9a-f]+$/i.test(answer.result) ? BigInt(answer.result) : null;

/** The service's verdict (checkEvm, in order): the reason a check fails, or null when it passes. */
function verdict(chain, nonce, balance) {
  if (hexInteger(chain) !== BigInt(chainId)) return 'RpcValidationFailed';
  if (hexInteger(nonce) === null) return 'NonceSyncFailed';
  const wei = hexInteger(balance);
  if (wei === null || wei < minBalance) return 'BalanceCheckFailed';
  return null;
}

async function post(slice, tally) {
  const response = await globalThis.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: batchBody(slice),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const answers = await response.json();
  if (!Array.isArray(answers))
    throw new Error(`${url}: not a batch answer: ${JSON.stringify(answers).slice(0, 200)}`);
  // A batch's answers may come in any order: matched by id.
  const byId = new Array(slice.length * CALLS_PER_CHECK);
  for (const answer of answers) byId[answer.id] = answer;
  for (let k = 0; k < slice.length; k++) {
    const reason = verdict(byId[3 * k], byId[3 * k + 1], byId[3 * k + 2]);
    if (reason === null) tally.passed++;
    else {
      tally.failed[reason] = (tally.failed[reason] ?? 0) + 1;
      tally.firstFailure ??= {
        address: slice[k],
        reason,
        answers: [byId[3 * k], byId[3 * k + 1], byId[3 * k + 2]],
      };
    }
  }
}

async function round() {
  const tally = { passed: 0, failed: {}, firstFailure: null };
  let next = 0;
  let requests = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const slice = addresses.slice(next, next + relayersPerRequest);
      next += relayersPerRequest;
      requests++;
      await post(slice, tally);
    }
  };
  const workers = Math.min(inFlight, Math.ceil(addresses.length / relayersPerRequest));
  const anvilBefore = processCpuMs(anvilPid);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, worker));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const anvilAfter = processCpuMs(anvilPid);
  return {
    checked: tally.passed + Object.values(tally.failed).reduce((s, x) => s + x, 0),
    passed: tally.passed,
    failed: tally.failed,
    firstFailure: tally.firstFailure,
    requests,
    calls: addresses.length * CALLS_PER_CHECK,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    anvilCpuMs: anvilBefore === null || anvilAfter === null ? null : anvilAfter - anvilBefore,
  };
}

try {
  const results = [];
  for (let i = 0; i < rounds; i++) results.push(await round());
  const total = process.cpuUsage();
  console.log(
    JSON.stringify({
      b4: 1,
      relayers: addresses.length,
      callsPerCheck: CALLS_PER_CHECK,
      batchCalls: relayersPerRequest * CALLS_PER_CHECK,
      inFlight,
      node: process.version,
      rounds: results,
      // CPU of the whole process, start-up and module loading included.
      processCpuMs: (total.user + total.system) / 1000,
    }),
  );
} catch (error) {
  console.log(JSON.stringify({ b4: 1, error: String(error?.stack ?? error) }));
  process.exitCode = 1;
}
