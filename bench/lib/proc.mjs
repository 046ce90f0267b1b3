// Processes under test: spawn, wait for readiness, sample memory, stop.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** GET url; resolves with the status (0 when nothing answers). */
export function probe(url, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** One HTTP request with a full answer: {status, body}. */
export function httpRequest(base, { method = 'GET', path = '/', headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false, timeout: 10_000 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Spawns a process with stdout and stderr appended to `outputFile`. Returns a handle whose
 * `exited` promise resolves with the exit code (or signal).
 */
export function startProcess({ name, command, args, env, cwd, outputFile }) {
  const out = fs.openSync(outputFile, 'a');
  const startedAt = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exitInfo = null;
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  return {
    name,
    child,
    pid: child.pid,
    startedAt,
    outputFile,
    exited,
    get exitInfo() {
      return exitInfo;
    },
  };
}

/**
 * Polls `url` every `intervalMs` until it answers 200; resolves with the milliseconds since the
 * process was spawned. Rejects when the process exits first or after `timeoutMs`.
 */
export async function waitReady(handle, url, { timeoutMs = 60_000, intervalMs = 10 } = {}) {
  const deadline = handle.startedAt + timeoutMs;
  for (;;) {
    if (handle.exitInfo) {
      throw new Error(
        `${handle.name} exited (${JSON.stringify(handle.exitInfo)}) before ready; see ${handle.outputFile}`,
      );
    }
    const status = await probe(url, 1000);
    if (status === 200) return performance.now() - handle.startedAt;
    if (performance.now() > deadline) throw new Error(`${handle.name} not ready after ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(handle, graceMs = 15_000) {
  if (!handle || handle.exitInfo) return handle?.exitInfo ?? null;
  handle.child.kill('SIGTERM');
  const result = await Promise.race([handle.exited, sleep(graceMs).then(() => null)]);
  if (result) return result;
  handle.child.kill('SIGKILL');
  return handle.exited;
}

/** Fields of /proc/<pid>/status in bytes: VmRSS (now) and VmHWM (peak so far). */
export function memoryOf(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
      return m ? Number(m[1]) * 1024 : null;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: null, hwm: null };
  }
}

/** Samples VmRSS of `pid` every `intervalMs` until stopped; stop() returns the peak in bytes. */
export function sampleRss(pid, intervalMs = 100) {
  let peak = memoryOf(pid).rss ?? 0;
  const timer = setInterval(() => {
    const { rss } = memoryOf(pid);
    if (rss !== null && rss > peak) peak = rss;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const { rss } = memoryOf(pid);
      if (rss !== null && rss > peak) peak = rss;
      return peak;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// CPU accounting: how busy the machine was during a run, and how much of that was ours. Anything
// else (another test suite, a build) is "foreign" load that makes a run less trustworthy.

function machineTicks() {
  const fields = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const total = fields.reduce((s, v) => s + v, 0);
  const idle = fields[3] + fields[4];
  return { total, busy: total - idle };
}

function processTicks(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return 0;
  }
}

/** The pid of the local MySQL/MariaDB server, if one runs here (its CPU is part of the workload). */
export function findDatabaseServerPid() {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

export function cpuSnapshot(pids) {
  const machine = machineTicks();
  return {
    ...machine,
    pids: Object.fromEntries(pids.filter(Boolean).map((pid) => [pid, processTicks(pid)])),
  };
}

/** Cores used between two snapshots: by each pid, by all of them, and by everything else. */
export function cpuUsage(before, after, cores) {
  const total = after.total - before.total;
  if (total <= 0) return null;
  const toCores = (ticks) => (ticks / total) * cores;
  const perPid = {};
  let own = 0;
  for (const pid of Object.keys(before.pids)) {
    const used = (after.pids[pid] ?? 0) - before.pids[pid];
    perPid[pid] = toCores(used);
    own += used;
  }
  const busy = after.busy - before.busy;
  return { machine: toCores(busy), ours: toCores(own), foreign: Math.max(0, toCores(busy - own)), perPid };
}
