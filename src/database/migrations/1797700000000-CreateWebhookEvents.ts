import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  TableColumn,
  TableForeignKey,
  TableIndex,
} from 'typeorm';
import { dialectOf } from '../service-data-source';

const DELIVERIES = 'webhook_deliveries';
const EVENTS = 'webhook_events';
const EVENT_INDEX = 'idx_webhook_deliveries_event';
const EVENT_KEY = 'fk_webhook_deliveries_event';
/** Deliveries whose bodies are copied per statement: small write sets, also on Galera. */
const CHUNK = 500;

/**
 * docs/reference/webhooks.md#21-a-transactional-outbox: an event's body is stored once, in
 * `webhook_events`, whatever the number of targets it goes to; each target's delivery references it
 * by `event_id` (a foreign key: a delivery never lacks its body). The bodies of the deliveries
 * written before are moved there, one per distinct `event_id`, then `body` leaves
 * `webhook_deliveries`. Also `replayed_at` (docs/reference/webhooks.md#7-replay): when a replay last
 * queued the delivery again. down() puts each body back on its deliveries.
 */
export class CreateWebhookEvents1797700000000 implements MigrationInterface {
  name = 'CreateWebhookEvents1797700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    await queryRunner.createTable(
      new Table({
        name: EVENTS,
        columns: [
          // Compared byte for byte, as on SQLite: a UUID, ASCII.
          { name: 'id', type: 'varchar', length: '36', isPrimary: true, ...dialect.exactAscii },
          { name: 'body', type: String(dialect.documentType), isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    // The clean-up of bodies no delivery references any more looks at the oldest first.
    await queryRunner.createIndex(
      EVENTS,
      new TableIndex({ name: 'idx_webhook_events_created', columnNames: ['created_at', 'id'] }),
    );
    // Finds a delivery's fellows (the copy below, the clean-up of bodies no delivery references).
    await queryRunner.createIndex(
      DELIVERIES,
      new TableIndex({ name: EVENT_INDEX, columnNames: ['event_id'] }),
    );
    await forEachChunk(queryRunner, (from, to) =>
      queryRunner.query(
        `INSERT INTO ${EVENTS} (id, body, created_at)
         SELECT d.event_id, d.body, d.created_at FROM ${DELIVERIES} d
          WHERE d.id > ? AND d.id <= ?
            AND d.id = (SELECT MIN(o.id) FROM ${DELIVERIES} o WHERE o.event_id = d.event_id)`,
        [from, to],
      ),
    );
    await queryRunner.dropColumn(DELIVERIES, 'body');
    await queryRunner.addColumn(
      DELIVERIES,
      new TableColumn({ name: 'replayed_at', type: 'datetime', precision: 3, isNullable: true }),
    );
    // A foreign key joins columns of one collation (MySQL): event_id is compared byte for byte too.
    if (dialect.exactAscii.collation !== undefined) {
      const table = await queryRunner.getTable(DELIVERIES);
      const eventId = table?.findColumnByName('event_id');
      if (!table || !eventId) throw new Error(`${DELIVERIES}.event_id is missing`);
      const exact = eventId.clone();
      Object.assign(exact, dialect.exactAscii);
      await queryRunner.changeColumn(table, eventId, exact);
    }
    await queryRunner.createForeignKey(
      DELIVERIES,
      new TableForeignKey({
        name: EVENT_KEY,
        columnNames: ['event_id'],
        referencedTableName: EVENTS,
        referencedColumnNames: ['id'],
      }),
    );
  }

  /** event_id stays compared byte for byte: it holds UUIDs, and nothing before relied on its collation. */
  async down(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    await queryRunner.dropForeignKey(DELIVERIES, EVENT_KEY);
    await queryRunner.dropColumn(DELIVERIES, 'replayed_at');
    const body = new TableColumn({ name: 'body', type: String(dialect.documentType), isNullable: true });
    await queryRunner.addColumn(DELIVERIES, body);
    await forEachChunk(queryRunner, (from, to) =>
      queryRunner.query(
        `UPDATE ${DELIVERIES} SET body = (SELECT e.body FROM ${EVENTS} e WHERE e.id = ${DELIVERIES}.event_id)
          WHERE id > ? AND id <= ?`,
        [from, to],
      ),
    );
    const required = body.clone();
    required.isNullable = false;
    await queryRunner.changeColumn(DELIVERIES, body, required);
    await queryRunner.dropIndex(DELIVERIES, EVENT_INDEX);
    await queryRunner.dropTable(EVENTS);
  }
}

/** Runs `work` over the deliveries in ranges of CHUNK ids, `from` excluded, `to` included. */
async function forEachChunk(
  queryRunner: QueryRunner,
  work: (from: string, to: string) => Promise<unknown>,
): Promise<void> {
  for (let from = ''; ;) {
    const ids: unknown = await queryRunner.query(
      `SELECT id FROM ${DELIVERIES} WHERE id > ? ORDER BY id LIMIT ${CHUNK}`,
      [from],
    );
    const last = (ids as Array<{ id: string }>).at(-1);
    if (last === undefined) return;
    await work(from, last.id);
    from = last.id;
  }
}
