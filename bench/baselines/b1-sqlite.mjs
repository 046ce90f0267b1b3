// B1: the embedded database's ceiling. node:http + better-sqlite3 prepared statements doing what the
// service's routes do to the database (insert, point read, page + count, read-merge-update with a
// version check), JSON in and out, with the service's pragmas (WAL, synchronous FULL, foreign keys).
// Env: PORT, HOST, DATABASE_URL=sqlite:<path>. The handlers are in sqlite-handlers.mjs (B3 on
// SQLite runs the same ones inside Nest).
import { createBaselineServer, listen } from './common.mjs';
import { sqliteHandlers } from './sqlite-handlers.mjs';

const { handlers, close } = sqliteHandlers(process.env.DATABASE_URL ?? 'sqlite:./b1.sqlite');

listen(createBaselineServer(handlers), 'B1 node:http + better-sqlite3', close);
