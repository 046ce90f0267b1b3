import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/**
 * docs/reference/webhooks.md#29-batches: a target's run takes that target's next due deliveries in
 * order with a range of this index, never scanning other targets' deliveries or its own history.
 */
export class AddWebhookDeliveriesTargetDueIndex1796482266362 implements MigrationInterface {
  name = 'AddWebhookDeliveriesTargetDueIndex1796482266362';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({
        name: 'idx_webhook_deliveries_target_due',
        columnNames: ['notification_id', 'status', 'next_attempt_at', 'created_at', 'id'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'idx_webhook_deliveries_target_due');
  }
}
