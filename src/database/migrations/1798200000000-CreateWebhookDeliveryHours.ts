import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { dialectOf } from '../service-data-source';

const HOURS = 'webhook_delivery_hours';

/**
 * docs/reference/webhooks.md#94-the-cost: the totals of each closed hour of a target's deliveries,
 * one row per (target, hour), made by the stats reads as they need them; a window then reads a row
 * per hour instead of its deliveries. The hour is `YYYY-MM-DD HH` (UTC), the first 13 characters of
 * a stored datetime on both databases. The latencies are a histogram in text (MEDIUMTEXT on MySQL,
 * as documents). Deleted with the target. Empty at first: the reads fill it.
 */
export class CreateWebhookDeliveryHours1798200000000 implements MigrationInterface {
  name = 'CreateWebhookDeliveryHours1798200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    await queryRunner.createTable(
      new Table({
        name: HOURS,
        columns: [
          // Refers to notifications.id, compared byte for byte as it (1797600000000-ExactIds).
          { name: 'notification_id', type: 'varchar', length: '36', isPrimary: true, ...dialect.exactAscii },
          { name: 'hour', type: 'varchar', length: '13', isPrimary: true, ...dialect.exactAscii },
          { name: 'delivered', type: 'integer', isNullable: false },
          { name: 'failed', type: 'integer', isNullable: false },
          { name: 'retried', type: 'integer', isNullable: false },
          { name: 'failures', type: 'integer', isNullable: false },
          { name: 'latencies', type: String(dialect.documentType), isNullable: false },
        ],
        foreignKeys: [
          {
            name: 'fk_webhook_delivery_hours_notification',
            columnNames: ['notification_id'],
            referencedTableName: 'notifications',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(HOURS);
  }
}
