// What B2 (b2-mysql.mjs) and B3 (b3-nest.mjs, on MySQL) do to the database: a mysql2 pool (10
// connections, like the service) doing what the service's routes do (insert, point read, page +
// count, read-merge-update with a version check). B2_STATEMENTS=execute (server-side prepared
// statements, the default) or query (client-side escaping, as TypeORM does). The schema is the
// service's (the benchmark copies it).
import mysql from 'mysql2/promise';
import { randomUUID } from 'node:crypto';
import {
  HttpError,
  RELAYER_COLUMNS,
  mergeRelayerPatch,
  newRelayerRow,
  relayerResponse,
  requireRelayerShape,
} from './common.mjs';

/**
 * The handlers of createBaselineServer (common.mjs) for DATABASE_URL=mysql://user:pass@host:port/db,
 * close(), and the statement mode.
 */
export function mysqlHandlers(url, mode = process.env.B2_STATEMENTS ?? 'execute') {
  if (!url?.startsWith('mysql://')) throw new Error('DATABASE_URL must be mysql://user:pass@host:port/db');
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: 10,
    maxIdle: 10,
    enableKeepAlive: true,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  if (mode !== 'execute' && mode !== 'query') throw new Error('B2_STATEMENTS must be execute or query');
  const run = (sql, values) => (mode === 'execute' ? pool.execute(sql, values) : pool.query(sql, values));

  const limitValues = (limit, offset) =>
    mode === 'execute' ? [String(limit), String(offset)] : [limit, offset];

  const INSERT_RELAYER = `INSERT INTO relayers (${RELAYER_COLUMNS.join(', ')}) VALUES (${RELAYER_COLUMNS.map(() => '?').join(', ')})`;
  const SELECT_RELAYER = 'SELECT * FROM relayers WHERE id = ?';
  const SELECT_PAGE = 'SELECT * FROM relayers ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?';
  const COUNT_RELAYERS = 'SELECT COUNT(*) AS n FROM relayers';
  const UPDATE_RELAYER =
    'UPDATE relayers SET name = ?, paused = ?, notification_id = ?, custom_rpc_urls = ?, policies = ?, ' +
    'updated_at = ?, version = version + 1 WHERE id = ? AND version = ?';
  const INSERT_NOTIFICATION =
    'INSERT INTO notifications (id, type, url, signing_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)';

  const notFound = (id) => new HttpError(404, `Relayer with ID ${id} not found`);

  const handlers = {
    async createRelayer(body) {
      requireRelayerShape(body);
      const row = newRelayerRow(body, body.id ?? randomUUID(), new Date());
      try {
        await run(
          INSERT_RELAYER,
          RELAYER_COLUMNS.map((c) => row[c]),
        );
      } catch (error) {
        if (error.code === 'ER_DUP_ENTRY') {
          if (String(error.message).includes('PRIMARY'))
            throw new HttpError(409, 'Relayer with this ID already exists');
          throw new HttpError(400, `Signer ${row.signer_id} is already used`);
        }
        throw error;
      }
      return relayerResponse(row);
    },
    async getRelayer(id) {
      const [rows] = await run(SELECT_RELAYER, [id]);
      if (rows.length === 0) throw notFound(id);
      return relayerResponse(rows[0]);
    },
    async listRelayers({ page, perPage }) {
      // Both queries at once, on two pool connections.
      const [[rows], [count]] = await Promise.all([
        // LIMIT placeholders: strings for server-side prepared statements (a mysql2/MySQL quirk), numbers for query.
        run(SELECT_PAGE, limitValues(perPage, (page - 1) * perPage)),
        run(COUNT_RELAYERS, []),
      ]);
      return { items: rows.map(relayerResponse), total: Number(count[0].n) };
    },
    async patchRelayer(id, body) {
      // Optimistic locking like the service: write only if the version did not move, else re-read.
      for (let attempt = 0; attempt < 50; attempt++) {
        const [rows] = await run(SELECT_RELAYER, [id]);
        if (rows.length === 0) throw notFound(id);
        const row = rows[0];
        const changes = mergeRelayerPatch(row, body);
        const updatedAt = new Date();
        const [result] = await run(UPDATE_RELAYER, [
          changes.name,
          changes.paused,
          changes.notification_id,
          changes.custom_rpc_urls,
          changes.policies,
          updatedAt,
          id,
          row.version,
        ]);
        if (result.affectedRows === 1) {
          return relayerResponse({ ...row, ...changes, updated_at: updatedAt, version: row.version + 1 });
        }
      }
      throw new HttpError(503, 'Service Unavailable');
    },
    async createNotification(body) {
      if (typeof body.url !== 'string') throw new HttpError(400, 'url must be a URL');
      const id = body.id ?? randomUUID();
      const now = new Date();
      try {
        await run(INSERT_NOTIFICATION, [id, 'webhook', body.url, body.signing_key ?? null, now, now]);
      } catch (error) {
        if (error.code === 'ER_DUP_ENTRY')
          throw new HttpError(409, 'Notification with this ID already exists');
        throw error;
      }
      return { id, type: 'webhook', url: body.url, has_signing_key: body.signing_key != null };
    },
  };
  return { handlers, close: () => pool.end(), mode };
}
