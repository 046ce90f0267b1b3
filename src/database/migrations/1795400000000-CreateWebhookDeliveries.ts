import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

export class CreateWebhookDeliveries1795400000000 implements MigrationInterface {
  name = 'CreateWebhookDeliveries1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'notification_id', type: 'varchar', length: '36', isNullable: false },
          { name: 'event_id', type: 'varchar', length: '36', isNullable: false },
          { name: 'event', type: 'varchar', length: '32', isNullable: false },
          { name: 'relayer_id', type: 'varchar', length: '36', isNullable: true },
          // The exact bytes that are sent (and signed) on every attempt.
          { name: 'body', type: 'text', isNullable: false },
          { name: 'status', type: 'varchar', length: '16', isNullable: false },
          { name: 'attempts', type: 'integer', isNullable: false },
          { name: 'last_status_code', type: 'integer', isNullable: true },
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          { name: 'next_attempt_at', type: 'datetime', precision: 3, isNullable: false },
          // Which instance is attempting it, until when: claimed by a conditional UPDATE.
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          { name: 'lease_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'delivered_at', type: 'datetime', precision: 3, isNullable: true },
          // When it became delivered or failed: kept 7 days after that.
          { name: 'ended_at', type: 'datetime', precision: 3, isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({ name: 'idx_webhook_deliveries_due', columnNames: ['status', 'next_attempt_at'] }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({
        name: 'idx_webhook_deliveries_notification',
        columnNames: ['notification_id', 'created_at', 'id'],
      }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({ name: 'idx_webhook_deliveries_ended_at', columnNames: ['ended_at'] }),
    );
    await queryRunner.createForeignKey(
      'webhook_deliveries',
      new TableForeignKey({
        name: 'fk_webhook_deliveries_notification',
        columnNames: ['notification_id'],
        referencedTableName: 'notifications',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_deliveries');
  }
}
