import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { dialectOf } from '../service-data-source';

/**
 * docs/reference/webhooks.md#6-subscriptions: a target's subscription, and one row per relayer it is
 * subscribed to (`*`: every relayer), keyed by the relayer so that a relayer's event finds its
 * subscribers with one range of the primary key. Both go with their target.
 */
export class CreateWebhookSubscriptions1797100000000 implements MigrationInterface {
  name = 'CreateWebhookSubscriptions1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhook_subscriptions',
        columns: [
          { name: 'notification_id', type: 'varchar', length: '36', isPrimary: true },
          // A JSON array of event names, or NULL for every event.
          { name: 'events', type: 'varchar', length: '512', isNullable: true },
          { name: 'version', type: 'integer', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createForeignKey(
      'webhook_subscriptions',
      new TableForeignKey({
        name: 'fk_webhook_subscriptions_notification',
        columnNames: ['notification_id'],
        referencedTableName: 'notifications',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_subscription_relayers',
        columns: [
          // Compared byte for byte, as on SQLite (`abc` is not `ABC`): ids and `*` are ASCII.
          {
            name: 'relayer_id',
            type: 'varchar',
            length: '36',
            isPrimary: true,
            ...dialectOf(queryRunner.connection).exactAscii,
          },
          { name: 'notification_id', type: 'varchar', length: '36', isPrimary: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'webhook_subscription_relayers',
      new TableIndex({
        name: 'idx_webhook_subscription_relayers_notification',
        columnNames: ['notification_id'],
      }),
    );
    await queryRunner.createForeignKey(
      'webhook_subscription_relayers',
      new TableForeignKey({
        name: 'fk_webhook_subscription_relayers_subscription',
        columnNames: ['notification_id'],
        referencedTableName: 'webhook_subscriptions',
        referencedColumnNames: ['notification_id'],
        onDelete: 'CASCADE',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_subscription_relayers');
    await queryRunner.dropTable('webhook_subscriptions');
  }
}
