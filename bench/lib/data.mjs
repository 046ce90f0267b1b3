// Test data: the signer catalogue, the (signer, network) pairs that creates consume, the seeded
// relayer rows of the read scenarios, and schema copies (service -> baseline) for both databases.
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { RELAYER_COLUMNS } from '../baselines/common.mjs';

export const NETWORKS = [
  { type: 'evm', network: 'sepolia', chain_id: 11155111, rpc_urls: ['https://rpc.example.com/sepolia'] },
  { type: 'solana', network: 'devnet', rpc_urls: ['https://rpc.example.com/devnet'] },
  {
    type: 'stellar',
    network: 'testnet',
    passphrase: 'Test SDF Network ; September 2015',
    rpc_urls: ['https://rpc.example.com/testnet'],
  },
];

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

export function signerId(index, count) {
  return `bench-${String(index).padStart(Math.max(5, String(count).length), '0')}`;
}

/** A catalogue of `count` plain signers with deterministic keys (valid secp256k1 scalars). */
export function writeCatalogue(file, count) {
  const signers = [];
  for (let i = 1; i <= count; i++) {
    signers.push({
      id: signerId(i, count),
      type: 'plain',
      config: { key: { type: 'plain', value: sha256(`relayer-bench-signer-${i}`) } },
    });
  }
  fs.writeFileSync(file, JSON.stringify({ networks: NETWORKS, signers }));
  return { file, signers: count, bytes: fs.statSync(file).size };
}

/**
 * The k-th free (signer, network) pair, k from 0: the three networks in turn, so that every run
 * mixes EVM (secp256k1) and ed25519 (Solana, Stellar) address derivations the same way.
 * Null when the catalogue has no pair left, unless `unlimited` (the baselines have no catalogue:
 * they get the same ids, and more of them).
 */
export function pairAt(k, signerCount, { unlimited = false } = {}) {
  const index = Math.floor(k / NETWORKS.length) + 1;
  if (index > signerCount && !unlimited) return null;
  const network = NETWORKS[k % NETWORKS.length];
  return { signer_id: signerId(index, signerCount), network: network.network, network_type: network.type };
}

// ---------------------------------------------------------------------------------------------------------
// Seeded relayers: list padding and the rows that GET and PATCH rotate over. They are written with
// SQL (as the service's own rows look in the table) and use signer ids outside the catalogue, so
// they never take a pair that the create scenario needs.

const SEED_EPOCH = Date.UTC(2020, 0, 1);
export const seedId = (i) => `seed-${String(i).padStart(6, '0')}`;

// The relayers columns, in the order the seed rows are written (shared with the baselines).
const SEED_COLUMNS = RELAYER_COLUMNS;

function seedRow(i, notificationId = null) {
  const at = new Date(SEED_EPOCH + i * 1000).toISOString().replace('T', ' ').replace('Z', '');
  return [
    seedId(i),
    `Seed relayer ${i}`,
    'sepolia',
    'evm',
    `0x${sha256(`seed-address-${i}`).slice(0, 40)}`,
    `seed-signer-${String(i).padStart(6, '0')}`,
    notificationId,
    0,
    0,
    null,
    JSON.stringify([{ url: `https://rpc.example.com/v2/seed-key-${i}`, weight: 100 }]),
    JSON.stringify({ eip1559_pricing: true, min_balance: 100000000000000000, gas_price_cap: 300000000000 }),
    1,
    at,
    at,
  ];
}

// ---------------------------------------------------------------------------------------------------------
// SQLite

export function sqliteVersion() {
  const db = new Database(':memory:');
  try {
    return db.prepare('SELECT sqlite_version() AS v').pluck().get();
  } finally {
    db.close();
  }
}

/** Copies the tables and indexes of notifications and relayers from one database file to a new one. */
export function copySqliteSchema(fromFile, toFile) {
  const from = new Database(fromFile, { readonly: true, timeout: 10_000 });
  const statements = from
    .prepare(
      "SELECT type, tbl_name, sql FROM sqlite_master WHERE tbl_name IN ('notifications', 'relayers') AND sql IS NOT NULL",
    )
    .all()
    .sort((a, b) => rank(a) - rank(b))
    .map((row) => row.sql);
  from.close();
  const to = new Database(toFile, { timeout: 10_000 });
  to.pragma('journal_mode = WAL');
  to.transaction(() => {
    for (const sql of statements) to.exec(sql);
  })();
  to.close();
  return statements;

  function rank(row) {
    return (row.type === 'table' ? 0 : 2) + (row.tbl_name === 'relayers' ? 1 : 0);
  }
}

/** Deletes `n` relayers that are not seeded rows (those of the create scenario). */
export function trimSqlite(file, n) {
  const db = new Database(file, { timeout: 10_000 });
  try {
    db.prepare(
      "DELETE FROM relayers WHERE id IN (SELECT id FROM relayers WHERE id NOT LIKE 'seed-%' LIMIT ?)",
    ).run(n);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

export function sqliteCount(file, table = 'relayers') {
  const db = new Database(file, { readonly: true, timeout: 10_000 });
  try {
    return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();
  } finally {
    db.close();
  }
}

/**
 * Inserts seed rows first..last (inclusive) in one transaction; with `notificationId`, the rows name
 * that notification target (the webhook scenarios).
 */
export function seedSqlite(file, first, last, { notificationId = null } = {}) {
  if (last < first) return 0;
  const db = new Database(file, { timeout: 10_000 });
  try {
    const insert = db.prepare(
      `INSERT INTO relayers (${SEED_COLUMNS.join(', ')}) VALUES (${SEED_COLUMNS.map(() => '?').join(', ')})`,
    );
    db.transaction(() => {
      for (let i = first; i <= last; i++) insert.run(seedRow(i, notificationId));
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return last - first + 1;
}

// ---------------------------------------------------------------------------------------------------------
// MySQL

export function mysqlDatabaseUrl(serverUrl, database) {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Connects to the server (no database); null with the reason when it does not answer. */
export async function mysqlServer(serverUrl) {
  try {
    const connection = await mysql.createConnection({ uri: serverUrl, connectTimeout: 3000 });
    const [[row]] = await connection.query('SELECT VERSION() AS v');
    return { connection, version: row.v };
  } catch (error) {
    return { connection: null, reason: `${error.code ?? ''} ${error.message}`.trim() };
  }
}

export async function withMysql(url, fn) {
  const connection = await mysql.createConnection({
    uri: url,
    connectTimeout: 5000,
    multipleStatements: false,
  });
  try {
    return await fn(connection);
  } finally {
    await connection.end();
  }
}

export async function copyMysqlSchema(fromUrl, toUrl) {
  const statements = await withMysql(fromUrl, async (c) => {
    const out = [];
    for (const table of ['notifications', 'relayers']) {
      const [[row]] = await c.query(`SHOW CREATE TABLE \`${table}\``);
      out.push(row['Create Table']);
    }
    return out;
  });
  await withMysql(toUrl, async (c) => {
    for (const sql of statements) await c.query(sql);
  });
  return statements;
}

export function mysqlCount(url, table = 'relayers') {
  return withMysql(url, async (c) => {
    const [[row]] = await c.query(`SELECT COUNT(*) AS n FROM \`${table}\``);
    return Number(row.n);
  });
}

/** Deletes `n` relayers that are not seeded rows (those of the create scenario). */
export function trimMysql(url, n) {
  return withMysql(url, (c) => c.query("DELETE FROM relayers WHERE id NOT LIKE 'seed-%' LIMIT ?", [n]));
}

export async function seedMysql(url, first, last, { notificationId = null } = {}) {
  if (last < first) return 0;
  await withMysql(url, async (c) => {
    await c.beginTransaction();
    for (let start = first; start <= last; start += 1000) {
      const rows = [];
      for (let i = start; i <= Math.min(last, start + 999); i++) rows.push(seedRow(i, notificationId));
      await c.query(`INSERT INTO relayers (${SEED_COLUMNS.join(', ')}) VALUES ?`, [rows]);
    }
    await c.commit();
  });
  return last - first + 1;
}

/**
 * InnoDB recomputes a table's statistics in the background once 10% of its rows changed; right
 * after a bulk seed they can still describe the empty table, and the optimizer then sorts the
 * whole table for a page instead of walking the (created_at, id) index. Recompute them now, as
 * the server would shortly, so that neither side is measured with stale statistics.
 */
export async function analyzeMysql(url) {
  await withMysql(url, (c) => c.query('ANALYZE TABLE relayers, notifications'));
}

// ---------------------------------------------------------------------------------------------------------
// The webhook outbox, read beside the service: how many deliveries are pending, how many rows in all.

/**
 * An open read-only handle on the service's `webhook_deliveries` (a SQLite file or a MySQL
 * database). `counts()` resolves with { pending, total, failed }; a database without the table (a
 * build from before the outbox) reads as empty.
 */
/**
 * The median time of one durable commit on this database and disk, as the service's writes pay it
 * (SQLite: WAL with synchronous = FULL, a file beside `db.file`; MySQL: an autocommit UPDATE of one row
 * of a scratch InnoDB table in `db`'s database): n one-row updates one after the other. A target's
 * deliveries go out at most one per commit (docs/reference/webhooks.md#29-batches).
 */
export async function commitLatencyMs(kind, db, n = 300) {
  const times = [];
  if (kind === 'sqlite') {
    const file = `${db.file}.commit-probe`;
    const handle = new Database(file);
    try {
      handle.pragma('journal_mode = WAL');
      handle.pragma('synchronous = FULL');
      handle.exec('CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, v INTEGER)');
      handle.exec('INSERT OR IGNORE INTO probe VALUES (1, 0)');
      const update = handle.prepare('UPDATE probe SET v = v + 1 WHERE id = 1');
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        update.run();
        times.push(performance.now() - t0);
      }
    } finally {
      handle.close();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
    }
  } else {
    const connection = await mysql.createConnection({ uri: db.url, connectTimeout: 5000 });
    try {
      await connection.query('CREATE TABLE bench_commit_probe (id INT PRIMARY KEY, v INT) ENGINE=InnoDB');
      await connection.query('INSERT INTO bench_commit_probe VALUES (1, 0)');
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await connection.query('UPDATE bench_commit_probe SET v = v + 1 WHERE id = 1');
        times.push(performance.now() - t0);
      }
    } finally {
      await connection.query('DROP TABLE IF EXISTS bench_commit_probe');
      await connection.end();
    }
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function openOutboxProbe(kind, db) {
  if (kind === 'sqlite') {
    const handle = new Database(db.file, { readonly: true, timeout: 10_000 });
    const hasTable = () =>
      handle.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'webhook_deliveries'").pluck().get() >
      0;
    return {
      counts(withTotal = true) {
        if (!hasTable()) return { pending: 0, total: 0, failed: 0, table: false };
        const one = (sql) => handle.prepare(sql).pluck().get();
        return {
          pending: one("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'"),
          failed: withTotal ? one("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'failed'") : null,
          total: withTotal ? one('SELECT COUNT(*) FROM webhook_deliveries') : null,
          table: true,
        };
      },
      close() {
        handle.close();
      },
    };
  }
  const connection = await mysql.createConnection({ uri: db.url, connectTimeout: 5000 });
  return {
    async counts(withTotal = true) {
      const [tables] = await connection.query("SHOW TABLES LIKE 'webhook_deliveries'");
      if (tables.length === 0) return { pending: 0, total: 0, failed: 0, table: false };
      const one = async (sql) => Number((await connection.query(sql))[0][0].n);
      return {
        pending: await one("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'"),
        failed: withTotal
          ? await one("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'failed'")
          : null,
        total: withTotal ? await one('SELECT COUNT(*) AS n FROM webhook_deliveries') : null,
        table: true,
      };
    },
    close() {
      return connection.end();
    },
  };
}
