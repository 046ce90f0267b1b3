// B2: the MySQL ceiling. node:http + a mysql2 pool (10 connections, like the service) doing what the
// service's routes do to the database (insert, point read, page + count, read-merge-update with a
// version check), JSON in and out. Env: PORT, HOST, DATABASE_URL=mysql://user:pass@host:port/db,
// B2_STATEMENTS=execute (server-side prepared statements, the default) or query (client-side
// escaping, as TypeORM does). The handlers are in mysql-handlers.mjs (B3 on MySQL runs the same
// ones inside Nest). The schema is the service's (the benchmark copies it).
import { createBaselineServer, listen } from './common.mjs';
import { mysqlHandlers } from './mysql-handlers.mjs';

const { handlers, close, mode } = mysqlHandlers(process.env.DATABASE_URL);

listen(createBaselineServer(handlers), `B2 node:http + mysql2 pool (${mode})`, close);
