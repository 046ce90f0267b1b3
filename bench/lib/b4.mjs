// Baseline B4, the floor of a health round (bench/baselines/b4-rpc.mjs): the health-round scenario
// (health.mjs) runs it once, right after the service's round with no API load, against the same
// anvil and the same relayer addresses, and reports it beside that round (health-report.mjs);
// `--no-b4` leaves it out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess, stopProcess } from './proc.mjs';

export const B4_TITLE = 'B4 (bare Node, JSON-RPC batches over fetch, no database, no framework)';
/** Calls per JSON-RPC batch (whole relayers: 100 of them) and batches in flight at once. */
export const B4_BATCH_CALLS = 300;
export const B4_IN_FLIGHT = 4;
/** Rounds in B4's process: the first warms up, the last is the one reported. */
export const B4_ROUNDS = 2;
const B4_TIMEOUT_MS = 120_000;

/**
 * Runs B4 over `addresses` against `anvilUrl` (with the service's Node flags) and returns its
 * results: every round, and `measured`, the last one.
 */
export async function runB4(ctx, { anvilUrl, anvilPid, addresses, chainId, minBalance }) {
  const addressesFile = path.join(ctx.work, `b4-addresses-${addresses.length}.json`);
  fs.writeFileSync(addressesFile, JSON.stringify(addresses));
  const outputFile = path.join(ctx.work, `b4-${addresses.length}-${Date.now()}.out`);
  const handle = startProcess({
    name: 'B4',
    command: process.execPath,
    args: [...ctx.options.nodeFlags, path.join(ctx.root, 'bench', 'baselines', 'b4-rpc.mjs')],
    cwd: ctx.work,
    outputFile,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? os.homedir(),
      RPC_URL: anvilUrl,
      ADDRESSES_FILE: addressesFile,
      CHAIN_ID: String(chainId),
      MIN_BALANCE: String(minBalance),
      BATCH_CALLS: String(B4_BATCH_CALLS),
      IN_FLIGHT: String(B4_IN_FLIGHT),
      ROUNDS: String(B4_ROUNDS),
      ...(anvilPid ? { ANVIL_PID: String(anvilPid) } : {}),
    },
  });
  ctx.cleanups.push(() => stopProcess(handle));
  // The timer is cancelled once B4 exits: left pending, it would keep the benchmark alive at the end.
  const timer = new globalThis.AbortController();
  const exit = await Promise.race([
    handle.exited,
    sleep(B4_TIMEOUT_MS, null, { signal: timer.signal }).catch(() => null),
  ]);
  timer.abort();
  if (!exit) {
    await stopProcess(handle);
    throw new Error(`B4 did not finish within ${B4_TIMEOUT_MS / 1000} s; see ${outputFile}`);
  }
  const lines = fs.readFileSync(outputFile, 'utf8').trim().split('\n');
  let out = null;
  try {
    out = JSON.parse(lines.at(-1));
  } catch {
    // not ours: the error below
  }
  if (!out || out.error || exit.code !== 0)
    throw new Error(
      `B4 failed (${JSON.stringify(exit)}): ${(out?.error ?? lines.at(-1) ?? '').slice(0, 300)}`,
    );
  return { ...out, measured: out.rounds.at(-1) };
}
