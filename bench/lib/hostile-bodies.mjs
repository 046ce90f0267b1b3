// Hostile bodies (`--scenarios hostile-bodies`, opt-in): the review of issue 36 killed the process with
// 200 concurrent 627 KB bodies sent with Idempotency-Keys, and blocked its event loop for 7.9 s with
// one body of 95,000 keys. This soak sends both, and a body whose parsed form is large, at 200
// connections for --hostile-seconds (25) against the built service on a fresh database, and reports
// the answers by status, the peak RSS and the slowest /api/v1/health during it (docs/reference/hardening.md#3-bodies: it
// answers within 1 s). The section "Hostile bodies" of docs/benchmark-results.md (hostileMarkdown) comes from it.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { probe, sampleRss } from './proc.mjs';

export const HOSTILE_SCENARIOS = [
  {
    id: 'hostile-bodies',
    label:
      'Hostile bodies: 627 KB bodies with Idempotency-Keys and 95,000-key bodies at 200 connections (opt-in)',
    optIn: true,
  },
];

const TARGET_BYTES = 627 * 1024;
const HEALTH_EVERY_MS = 100;

/** A relayer body whose policy lists 627 KB of addresses: the review's size, parsed about 1.5 times its text. */
function addressesBody() {
  const head =
    '{"id":"hostile","name":"hostile","network":"sepolia","signer_id":"s1","policies":{"whitelist_receivers":[';
  const items = [];
  let size = head.length + 4;
  for (let i = 0; size < TARGET_BYTES; i++) {
    const item = `"0x${i.toString(16).padStart(40, '0')}"`;
    items.push(item);
    size += item.length + 1;
  }
  return Buffer.from(`${head}${items.join(',')}]}}`);
}

/** 627 KB of empty objects in an array: about 20 times its text once parsed, the costliest shape. */
function emptyObjectsBody() {
  const head = '{"url":"https://hooks.example.com/hostile","pad":[';
  const n = Math.floor((TARGET_BYTES - head.length - 2) / 3);
  return Buffer.from(`${head}${Array(n).fill('{}').join(',')}]}`);
}

/** 95,000 keys at the top level (the review's event-loop finding), under the 1 MiB limit. */
function manyKeysBody() {
  const keys = Array.from({ length: 95_000 }, (_, i) => `"${i.toString(36)}":0`);
  return Buffer.from(`{"url":"https://hooks.example.com/hostile",${keys.join(',')}}`);
}

function post(agent, url, apiKey, path, body) {
  return new Promise((resolve) => {
    const req = http.request(
      `${url}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
          'Idempotency-Key': `hostile-${randomBytes(8).toString('hex')}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', () => resolve('error'));
      },
    );
    req.on('error', () => resolve('error'));
    req.end(body);
  });
}

export async function benchHostileBodies(ctx, kind) {
  const { options, log, startService, freshDatabase, catalogues, apiKey } = ctx;
  const seconds = options.hostileSeconds;
  const shapes = [
    {
      id: 'addresses',
      label: '627 KB relayer body, a policy list of addresses',
      path: '/api/v1/relayers',
      body: addressesBody(),
      connections: 140,
    },
    {
      id: 'empty-objects',
      label: '627 KB notification body, an array of empty objects',
      path: '/api/v1/notifications',
      body: emptyObjectsBody(),
      connections: 40,
    },
    {
      id: 'many-keys',
      label: '95,000 keys at the top level',
      path: '/api/v1/notifications',
      body: manyKeysBody(),
      connections: 20,
    },
  ];
  const connections = shapes.reduce((sum, s) => sum + s.connections, 0);
  log(`${kind}: hostile-bodies (${connections} connections for ${seconds} s)`);
  const db = await freshDatabase('hostile');
  const service = await startService({
    databaseUrl: db.url,
    catalogue: catalogues.one,
    label: `${kind}-hostile`,
  });
  const rss = sampleRss(service.handle.pid, 50);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + seconds * 1000;
  const statuses = Object.fromEntries(shapes.map((s) => [s.id, {}]));
  const workers = shapes.flatMap((shape) =>
    Array.from({ length: shape.connections }, async () => {
      while (performance.now() < deadline) {
        const status = await post(agent, service.url, apiKey, shape.path, shape.body);
        statuses[shape.id][status] = (statuses[shape.id][status] ?? 0) + 1;
        if (status === 'error') await sleep(50);
      }
    }),
  );
  // The probe runs in a process of its own: the load generator's event loop is busy sending, and a
  // probe in it would count that wait as the service's.
  const healthLoop = probeHealthApart(`${service.url}/api/v1/health`, seconds * 1000);
  const [health] = await Promise.all([healthLoop, ...workers]);
  agent.destroy();
  const peakRssBytes = rss.stop();
  const sorted = health.latencies.sort((a, b) => a - b);
  const result = {
    seconds,
    connections,
    nodeFlags: options.nodeFlags,
    bodyMemoryLimitMB: 64,
    shapes: shapes.map(({ id, label, path, body, connections: c }) => ({
      id,
      label,
      path,
      bytes: body.length,
      connections: c,
      statuses: statuses[id],
    })),
    health: {
      count: health.count,
      failures: health.failures,
      maxMs: health.maxMs,
      p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? null,
    },
    peakRssMB: peakRssBytes / 2 ** 20,
    exitedDuringSoak: service.handle.exitInfo ?? null,
    aliveAtEnd: (await probe(`${service.url}/api/v1/health`)) === 200,
  };
  log(
    `  peak RSS ${result.peakRssMB.toFixed(0)} MB, health max ${health.maxMs.toFixed(0)} ms, alive at end: ${result.aliveAtEnd}; ` +
      shapes.map((s) => `${s.id} ${JSON.stringify(statuses[s.id])}`).join(', '),
  );
  return result;
}

/** GET `url` every 100 ms for `durationMs` from a child process: latencies, failures (not 200 within 10 s). */
function probeHealthApart(url, durationMs) {
  const script = `
    const http = require('node:http');
    const end = Date.now() + ${durationMs};
    const out = { count: 0, failures: 0, maxMs: 0, latencies: [] };
    const once = () => new Promise((resolve) => {
      const started = performance.now();
      const req = http.get(${JSON.stringify(url)}, { agent: false, timeout: 10000 }, (res) => {
        res.resume();
        res.on('end', () => resolve([res.statusCode, performance.now() - started]));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve([0, performance.now() - started]));
    });
    (async () => {
      while (Date.now() < end) {
        const [status, ms] = await once();
        out.count += 1;
        if (status !== 200) out.failures += 1;
        out.maxMs = Math.max(out.maxMs, ms);
        out.latencies.push(ms);
        await new Promise((r) => setTimeout(r, ${HEALTH_EVERY_MS}));
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(JSON.parse(text)));
  });
}

// ---------------------------------------------------------------------------------------------------------
// The page's section (report.mjs calls these; no dependencies beyond node:).

const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');

export const hasHostile = (results) => Object.values(results.databases ?? {}).some((s) => s.hostileBodies);

export function hostileMarkdown(results, relPath) {
  const lines = [
    '## Hostile bodies',
    '',
    `Run of ${results.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}, \`${results.command}\`, raw data in ` +
      `[\`${relPath}\`](../${relPath}); service built from commit \`${(results.git.commit ?? 'unknown').slice(0, 12)}\`` +
      (results.git.dirtyFiles.length ? ` plus ${results.git.dirtyFiles.length} uncommitted change(s)` : '') +
      '.',
    '',
    'The review of issue 36 stopped the process with 200 concurrent 627 KB bodies sent with `Idempotency-Key`s, and ' +
      'blocked its event loop for 7.9 s with one body of 95,000 keys. bench/lib/hostile-bodies.mjs sends those, and bodies ' +
      'whose parsed form is about 20 times their text, on 200 keep-alive connections in a closed loop, each request with a ' +
      'new `Idempotency-Key`, against the service with its default `BODY_MEMORY_LIMIT_MB` (64) and the Node flags of ' +
      '`npm start`, and asks `/api/v1/health` every 100 ms meanwhile ' +
      '([hardening, "Bodies"](reference/hardening.md#3-bodies)). The health probe runs in a process of its own ' +
      'and gives up after 10 s (counted as not 200). ' +
      `Load average of the machine at the start: ${(results.machine.loadavgAtStart ?? []).map((x) => x.toFixed(1)).join(', ') || '–'} ` +
      `(${results.machine.cores} cores, shared with the load generator and with whatever else ran).`,
    '',
  ];
  for (const [key, section] of Object.entries(results.databases)) {
    const h = section.hostileBodies;
    if (!h) continue;
    lines.push(
      `### ${key === 'mysql' ? 'MySQL' : 'SQLite'}`,
      '',
      `${h.seconds} s, ${h.connections} connections. Peak RSS **${int(h.peakRssMB)} MB**; \`/api/v1/health\` asked ` +
        `${int(h.health.count)} times, ${int(h.health.failures)} not 200, slowest **${int(h.health.maxMs)} ms** ` +
        `(p99 ${int(h.health.p99Ms)} ms); the process ${h.exitedDuringSoak ? '**exited**' : 'survived'} and ` +
        `${h.aliveAtEnd ? 'answered' : '**did not answer**'} at the end.`,
      '',
      '| Body | Bytes | Connections | Answers by status |',
      '| --- | ---: | ---: | --- |',
      ...h.shapes.map(
        (s) =>
          `| ${s.label} (\`POST ${s.path}\`) | ${int(s.bytes)} | ${s.connections} | ` +
          `${Object.entries(s.statuses)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([status, n]) => `${status}: ${int(n)}`)
            .join(', ')} |`,
      ),
      '',
    );
  }
  return lines;
}
