// What B1 (b1-sqlite.mjs) and B3 (b3-nest.mjs, on SQLite) do to the database: better-sqlite3
// prepared statements doing what the service's routes do (insert, point read, page + count,
// read-merge-update with a version check), with the service's pragmas (WAL, synchronous FULL,
// foreign keys). The schema is the service's (the benchmark copies it from the service's database;
// the fallback below mirrors its migrations).
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import {
  HttpError,
  RELAYER_COLUMNS,
  mergeRelayerPatch,
  newRelayerRow,
  relayerResponse,
  requireRelayerShape,
  sqlDateTime,
} from './common.mjs';

const FALLBACK_SCHEMA = [
  'CREATE TABLE IF NOT EXISTS "notifications" ("id" varchar(36) PRIMARY KEY NOT NULL, "type" varchar(16) NOT NULL, "url" varchar(2048) NOT NULL, "signing_key" text, "created_at" datetime(3) NOT NULL, "updated_at" datetime(3) NOT NULL)',
  'CREATE INDEX IF NOT EXISTS "idx_notifications_created_at_id" ON "notifications" ("created_at", "id")',
  'CREATE TABLE IF NOT EXISTS "relayers" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "network" varchar(100) NOT NULL, "network_type" varchar(16) NOT NULL, "address" varchar(128) NOT NULL, "signer_id" varchar(36) NOT NULL, "notification_id" varchar(36), "paused" boolean NOT NULL, "system_disabled" boolean NOT NULL, "disabled_reason" text, "custom_rpc_urls" text, "policies" text, "version" integer NOT NULL, "created_at" datetime(3) NOT NULL, "updated_at" datetime(3) NOT NULL, CONSTRAINT "fk_relayers_notification" FOREIGN KEY ("notification_id") REFERENCES "notifications" ("id") ON DELETE RESTRICT)',
  'CREATE UNIQUE INDEX IF NOT EXISTS "uq_relayers_signer_network" ON "relayers" ("network_type", "network", "signer_id")',
  'CREATE INDEX IF NOT EXISTS "idx_relayers_created_at_id" ON "relayers" ("created_at", "id")',
  'CREATE INDEX IF NOT EXISTS "idx_relayers_notification_id" ON "relayers" ("notification_id")',
];

/** The handlers of createBaselineServer (common.mjs) for DATABASE_URL=sqlite:<path>, and close(). */
export function sqliteHandlers(url) {
  if (!url.startsWith('sqlite:')) throw new Error('DATABASE_URL must be sqlite:<path>');
  const db = new Database(url.slice('sqlite:'.length), { timeout: 5000 });
  db.pragma('foreign_keys = ON');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  for (const sql of FALLBACK_SCHEMA) db.exec(sql);

  const insertRelayer = db.prepare(
    `INSERT INTO relayers (${RELAYER_COLUMNS.join(', ')}) VALUES (${RELAYER_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const selectRelayer = db.prepare('SELECT * FROM relayers WHERE id = ?');
  const selectPage = db.prepare('SELECT * FROM relayers ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?');
  const countRelayers = db.prepare('SELECT COUNT(*) AS n FROM relayers').pluck();
  const updateRelayer = db.prepare(
    'UPDATE relayers SET name = @name, paused = @paused, notification_id = @notification_id, ' +
      'custom_rpc_urls = @custom_rpc_urls, policies = @policies, updated_at = @updated_at, version = @version + 1 ' +
      'WHERE id = @id AND version = @version',
  );
  const insertNotification = db.prepare(
    'INSERT INTO notifications (id, type, url, signing_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );

  const notFound = (id) => new HttpError(404, `Relayer with ID ${id} not found`);

  const handlers = {
    createRelayer(body) {
      requireRelayerShape(body);
      const row = newRelayerRow(body, body.id ?? randomUUID(), sqlDateTime(new Date()));
      try {
        insertRelayer.run(row);
      } catch (error) {
        if (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
          throw new HttpError(409, 'Relayer with this ID already exists');
        if (error.code === 'SQLITE_CONSTRAINT_UNIQUE')
          throw new HttpError(400, `Signer ${row.signer_id} is already used`);
        throw error;
      }
      return relayerResponse(row);
    },
    getRelayer(id) {
      const row = selectRelayer.get(id);
      if (!row) throw notFound(id);
      return relayerResponse(row);
    },
    listRelayers({ page, perPage }) {
      const items = selectPage.all(perPage, (page - 1) * perPage).map(relayerResponse);
      return { items, total: countRelayers.get() };
    },
    patchRelayer(id, body) {
      // Synchronous driver: the read and the version-checked write cannot interleave with another request.
      const row = selectRelayer.get(id);
      if (!row) throw notFound(id);
      const changes = mergeRelayerPatch(row, body);
      const updatedAt = sqlDateTime(new Date());
      const written = updateRelayer.run({ ...changes, updated_at: updatedAt, id, version: row.version });
      if (written.changes !== 1) throw new HttpError(503, 'Service Unavailable');
      return relayerResponse({ ...row, ...changes, updated_at: updatedAt, version: row.version + 1 });
    },
    createNotification(body) {
      if (typeof body.url !== 'string') throw new HttpError(400, 'url must be a URL');
      const id = body.id ?? randomUUID();
      const now = sqlDateTime(new Date());
      try {
        insertNotification.run(id, 'webhook', body.url, body.signing_key ?? null, now, now);
      } catch (error) {
        if (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
          throw new HttpError(409, 'Notification with this ID already exists');
        throw error;
      }
      return { id, type: 'webhook', url: body.url, has_signing_key: body.signing_key != null };
    },
  };
  return { handlers, close: async () => db.close() };
}
