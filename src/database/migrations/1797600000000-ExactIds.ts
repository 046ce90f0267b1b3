import { type MigrationInterface, type QueryRunner, TableForeignKey } from 'typeorm';
import type { IdCharacters } from '../id-column';
import { dialectOf } from '../service-data-source';

/** An id column, or a column referring to an id, as its migration made it. */
interface IdColumnSpec {
  readonly table: string;
  readonly column: string;
  readonly length: number;
  readonly nullable: boolean;
  readonly characters: IdCharacters;
}

const spec = (
  table: string,
  column: string,
  length: number,
  nullable: boolean,
  characters: IdCharacters,
): IdColumnSpec => ({ table, column, length, nullable, characters });

/** Every id column of the schema but the three exact from their start (idempotency_keys', webhook_subscription_relayers.relayer_id). */
const ID_COLUMNS: readonly IdColumnSpec[] = [
  spec('notifications', 'id', 36, false, 'ascii'),
  spec('relayers', 'id', 36, false, 'ascii'),
  spec('relayers', 'network', 100, false, 'text'),
  spec('relayers', 'signer_id', 36, false, 'ascii'),
  spec('relayers', 'notification_id', 36, true, 'ascii'),
  spec('signers', 'id', 36, false, 'ascii'),
  spec('network_rpc_urls', 'network_id', 120, false, 'text'),
  spec('network_balance_alerts', 'network_id', 120, false, 'text'),
  spec('relayer_balance_alerts', 'relayer_id', 36, false, 'ascii'),
  spec('relayer_checks', 'relayer_id', 36, false, 'ascii'),
  spec('api_keys', 'id', 36, false, 'ascii'),
  spec('api_keys', 'created_by_key_id', 36, true, 'ascii'),
  spec('audit_events', 'id', 36, false, 'ascii'),
  spec('audit_events', 'actor_id', 36, true, 'text'),
  spec('audit_events', 'resource_id', 120, false, 'text'),
  spec('config_entries', 'id', 36, false, 'ascii'),
  spec('webhook_deliveries', 'id', 36, false, 'ascii'),
  spec('webhook_deliveries', 'notification_id', 36, false, 'ascii'),
  spec('webhook_deliveries', 'event_id', 36, false, 'ascii'),
  spec('webhook_deliveries', 'relayer_id', 36, true, 'ascii'),
  spec('webhook_target_leases', 'notification_id', 36, false, 'ascii'),
  spec('webhook_subscriptions', 'notification_id', 36, false, 'ascii'),
  spec('webhook_subscription_relayers', 'notification_id', 36, false, 'ascii'),
];

/** The tables of ID_COLUMNS, each once. */
const TABLES = [...new Set(ID_COLUMNS.map(({ table }) => table))];

/** The foreign keys between id columns, as their migrations made them: MySQL changes neither end of one. */
const FOREIGN_KEYS: ReadonlyArray<{ readonly table: string; readonly key: () => TableForeignKey }> = [
  ['relayers', 'fk_relayers_notification', 'notification_id', 'notifications', 'id', 'RESTRICT'],
  [
    'webhook_deliveries',
    'fk_webhook_deliveries_notification',
    'notification_id',
    'notifications',
    'id',
    'CASCADE',
  ],
  ['relayer_checks', 'fk_relayer_checks_relayer', 'relayer_id', 'relayers', 'id', 'CASCADE'],
  ['relayer_balance_alerts', 'fk_relayer_balance_alerts_relayer', 'relayer_id', 'relayers', 'id', 'CASCADE'],
  [
    'webhook_subscriptions',
    'fk_webhook_subscriptions_notification',
    'notification_id',
    'notifications',
    'id',
    'CASCADE',
  ],
  [
    'webhook_subscription_relayers',
    'fk_webhook_subscription_relayers_subscription',
    'notification_id',
    'webhook_subscriptions',
    'notification_id',
    'CASCADE',
  ],
].map(([table, name, column, referencedTable, referencedColumn, onDelete]) => ({
  table,
  key: () =>
    new TableForeignKey({
      name,
      columnNames: [column],
      referencedTableName: referencedTable,
      referencedColumnNames: [referencedColumn],
      onDelete,
    }),
}));

const quoted = (name: string): string => `\`${name}\``;
const specOf = (table: string, column: string): IdColumnSpec | undefined =>
  ID_COLUMNS.find((id) => id.table === table && id.column === column);
/** The character set of a collation: its name up to the first `_` (`utf8mb4_unicode_ci`, `latin1_swedish_ci`). */
const charsetOf = (collation: string): string => collation.split('_')[0];

/**
 * Ids compare exactly (docs/reference/running.md#37-ids-compare-exactly):
 * `TEAM-A-1` and `team-a-1` are two ids. SQLite compares bytes already: nothing to do there. On
 * MySQL every id column, and every column referring to one, had its table's collation, which
 * ignores case: a lookup by one id found the other, and a unique key took the two for one.
 *
 * The ids the service checks (ASCII letters, digits, `-` and `_`; UUIDs) become `ascii_bin`
 * (DatabaseDialect.exactAscii): a byte a character in keys, and the collation of the id columns exact
 * from their start, so that joins and foreign keys between id columns compare one way and use their
 * indexes. The ids taken as given (network names from the configuration file, an audit record's
 * resource and actor) become `utf8mb4_bin` (exactText): ASCII could not hold them, and MySQL answers a
 * comparison of an ASCII column with a string outside ASCII with an error (1267), not a miss.
 *
 * One ALTER TABLE per table, so that each is copied once (QueryRunner.changeColumn would copy it
 * once per column), written out as 1796000000000-WidenDocumentColumns does. A value outside ASCII in a
 * column becoming ASCII stops the migration before anything changes. MySQL's DDL does not roll back:
 * a run stopped half way is finished by the next one, each step looking at what is there first.
 */
export class ExactIds1797600000000 implements MigrationInterface {
  name = 'ExactIds1797600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    if (dialect.exactAscii.collation === undefined) return;
    await this.refuseNonAscii(queryRunner);
    await this.recollate(queryRunner, ({ characters }) => {
      const { charset, collation } = characters === 'ascii' ? dialect.exactAscii : dialect.exactText;
      return `CHARACTER SET ${charset} COLLATE ${collation}`;
    });
  }

  /**
   * Back to each table's collation, which its id columns had (no migration named one). Refused before
   * anything changes while two rows differ only where that collation sees no difference (`TEAM-A-1`
   * beside `team-a-1`): a unique key would take them for one.
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (dialectOf(queryRunner.connection).exactAscii.collation === undefined) return;
    const rows = await queryRunner.manager.query<Array<{ name: string; table_collation: string }>>(
      `SELECT TABLE_NAME AS name, TABLE_COLLATION AS table_collation
         FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()`,
    );
    const tableCollation = new Map(rows.map((row) => [row.name, row.table_collation]));
    const collationOf = ({ table }: IdColumnSpec): string => {
      const collation = tableCollation.get(table);
      if (collation === undefined) throw new Error(`ExactIds: no table ${table}`);
      return collation;
    };
    await this.refuseKeysThatWouldMerge(queryRunner, collationOf);
    await this.recollate(queryRunner, (id) => `COLLATE ${collationOf(id)}`);
  }

  /** Every id column to `collation(id)`, with the foreign keys between them dropped meanwhile. */
  private async recollate(queryRunner: QueryRunner, collation: (id: IdColumnSpec) => string): Promise<void> {
    const existing = await queryRunner.manager.query<Array<{ table_name: string; name: string }>>(
      `SELECT TABLE_NAME AS table_name, CONSTRAINT_NAME AS name FROM information_schema.REFERENTIAL_CONSTRAINTS
        WHERE CONSTRAINT_SCHEMA = DATABASE()`,
    );
    for (const { table, key } of FOREIGN_KEYS) {
      const { name = '' } = key();
      if (existing.some((row) => row.table_name === table && row.name === name)) {
        await queryRunner.dropForeignKey(table, name);
      }
    }
    for (const table of TABLES) {
      const changes = ID_COLUMNS.filter((id) => id.table === table).map(
        (id) =>
          `MODIFY ${quoted(id.column)} varchar(${id.length}) ${collation(id)} ${id.nullable ? 'NULL' : 'NOT NULL'}`,
      );
      await queryRunner.query(`ALTER TABLE ${quoted(table)} ${changes.join(', ')}`);
    }
    for (const { table, key } of FOREIGN_KEYS) await queryRunner.createForeignKey(table, key());
  }

  private async refuseNonAscii(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      const columns = ID_COLUMNS.filter((id) => id.table === table && id.characters === 'ascii').map(
        (id) => id.column,
      );
      if (columns.length === 0) continue;
      // A character outside ASCII has a byte from 0x80 in any character set.
      const [row] = await queryRunner.manager.query<Array<Record<string, string | null>>>(
        `SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)}
          WHERE ${columns.map((column) => `HEX(${quoted(column)}) NOT REGEXP '^([0-7][0-9A-F])*$'`).join(' OR ')}
          LIMIT 1`,
      );
      if (row === undefined) continue;
      const column = columns.find((name) => !/^\p{ASCII}*$/u.test(row[name] ?? ''));
      throw new Error(
        `ExactIds: ${table}.${column ?? columns.join('|')} holds ${JSON.stringify(row[column ?? ''] ?? row)}, ` +
          'which is not ASCII as every id the service writes is: nothing was changed',
      );
    }
  }

  /** Each unique key holding an id column, grouped as `collationOf(id)` compares: a group of two refuses. */
  private async refuseKeysThatWouldMerge(
    queryRunner: QueryRunner,
    collationOf: (id: IdColumnSpec) => string,
  ): Promise<void> {
    const parts = await queryRunner.manager.query<
      Array<{ table_name: string; index_name: string; column_name: string }>
    >(
      `SELECT TABLE_NAME AS table_name, INDEX_NAME AS index_name, COLUMN_NAME AS column_name
         FROM information_schema.STATISTICS
        WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0
        ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    );
    const keys = new Map<string, { table: string; index: string; columns: string[] }>();
    for (const part of parts) {
      const name = `${part.table_name}.${part.index_name}`;
      const key = keys.get(name) ?? { table: part.table_name, index: part.index_name, columns: [] };
      key.columns.push(part.column_name);
      keys.set(name, key);
    }
    for (const { table, index, columns } of keys.values()) {
      if (!columns.some((column) => specOf(table, column) !== undefined)) continue;
      const grouped = columns.map((column) => {
        const id = specOf(table, column);
        if (id === undefined) return quoted(column);
        const collation = collationOf(id);
        return `CONVERT(${quoted(column)} USING ${charsetOf(collation)}) COLLATE ${collation}`;
      });
      const [merged] = await queryRunner.manager.query<unknown[]>(
        `SELECT 1 AS found FROM ${quoted(table)} GROUP BY ${grouped.join(', ')} HAVING COUNT(*) > 1 LIMIT 1`,
      );
      if (merged !== undefined) {
        throw new Error(
          `ExactIds: ${table} has rows whose ${columns.join(', ')} differ only in case, which ${index} ` +
            `would take for one once case is ignored again: delete or rename one of them first; nothing was changed`,
        );
      }
    }
  }
}
