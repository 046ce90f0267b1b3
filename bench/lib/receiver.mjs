// The webhook receiver of the benchmark: a bare node:http server, run as a child process (so its CPU is
// its own, not the load generator's), that answers every delivery 200 at once and records when each
// arrived. The bench reads and steers it over the same port:
//
//   GET  /__stats               counts, first and last arrival, duplicates, order per relayer
//   GET  /__arrivals?from=N     arrival times and event ages of deliveries N.. (in arrival order)
//   POST /__hold                keep the next deliveries unanswered (the target is "down" but accepts)
//   POST /__release             answer the held ones, and answer at once from now on
//   POST /__reset               forget everything received
//
//   PORT=... node bench/lib/receiver.mjs       (prints "listening <port>" when ready)
//
// Times are epoch milliseconds with sub-millisecond precision (performance.timeOrigin + now), which the
// bench process computes the same way, so both clocks agree to well under a millisecond.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();

let arrivals = [];
let ages = [];
let count = 0;
let seen = new Map();
let duplicates = 0;
let outOfOrder = 0;
let lastByRelayer = new Map();
let byType = {};
let bytes = 0;
let holding = false;
let held = [];
let heldMax = 0;

function reset() {
  arrivals = [];
  ages = [];
  count = 0;
  seen = new Map();
  duplicates = 0;
  outOfOrder = 0;
  lastByRelayer = new Map();
  byType = {};
  bytes = 0;
  held = [];
  heldMax = 0;
}

function answer(res, status, value) {
  const text = value === undefined ? '' : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function record(req, body, at) {
  count++;
  arrivals.push(at);
  bytes += body.length;
  const id = String(req.headers['x-event-id'] ?? '');
  if (seen.has(id)) duplicates++;
  seen.set(id, (seen.get(id) ?? 0) + 1);
  const type = String(req.headers['x-event-type'] ?? 'unknown');
  byType[type] = (byType[type] ?? 0) + 1;
  let age = null;
  try {
    const json = JSON.parse(body.toString('utf8'));
    const stamped = Date.parse(json.timestamp);
    age = at - stamped;
    // One relayer's events must arrive in the order they happened (their timestamps are taken in
    // the transaction of the change, and a relayer's changes are serialised by its version).
    const relayerId = json.payload?.relayer?.id;
    if (relayerId) {
      const last = lastByRelayer.get(relayerId);
      if (last !== undefined && stamped < last) outOfOrder++;
      lastByRelayer.set(relayerId, Math.max(last ?? stamped, stamped));
    }
  } catch {
    // not JSON: counted, no age
  }
  ages.push(age);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (url.pathname.startsWith('/__')) {
    req.resume();
    req.on('end', () => {
      if (url.pathname === '/__stats') {
        return answer(res, 200, {
          count,
          unique: seen.size,
          duplicates,
          outOfOrderPerRelayer: outOfOrder,
          firstAt: arrivals[0] ?? null,
          lastAt: arrivals[arrivals.length - 1] ?? null,
          byType,
          bytes,
          holding,
          held: held.length,
          heldMax,
        });
      }
      if (url.pathname === '/__arrivals') {
        const from = Number(url.searchParams.get('from') ?? 0);
        return answer(res, 200, { from, arrivals: arrivals.slice(from), ages: ages.slice(from) });
      }
      if (url.pathname === '/__hold') {
        holding = true;
        return answer(res, 200, { holding });
      }
      if (url.pathname === '/__release') {
        holding = false;
        const waiting = held;
        held = [];
        const at = now();
        for (const h of waiting) {
          record(h.req, h.body, at);
          h.res.writeHead(200, { 'content-length': 0 }).end();
        }
        return answer(res, 200, { released: waiting.length });
      }
      if (url.pathname === '/__reset') {
        reset();
        return answer(res, 200, { reset: true });
      }
      return answer(res, 404, { error: 'unknown control path' });
    });
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const at = now();
    if (holding) {
      // Held: counted when released (as if it arrived then), like a receiver that was down.
      const entry = { req, res, body: Buffer.concat(chunks) };
      held.push(entry);
      heldMax = Math.max(heldMax, held.length);
      res.on('close', () => {
        held = held.filter((h) => h !== entry);
      });
      return;
    }
    record(req, Buffer.concat(chunks), at);
    res.writeHead(200, { 'content-length': 0 });
    res.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
