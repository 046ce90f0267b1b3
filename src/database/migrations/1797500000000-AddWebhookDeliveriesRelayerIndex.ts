import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

/**
 * docs/reference/webhooks.md#311-the-deliveries-about-one-relayer: a target's deliveries about one relayer, newest
 * first, and their count are a range of this index, whatever the rest of the target's log holds.
 */
export class AddWebhookDeliveriesRelayerIndex1797500000000 implements MigrationInterface {
  name = 'AddWebhookDeliveriesRelayerIndex1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({
        name: 'idx_webhook_deliveries_relayer',
        columnNames: ['notification_id', 'relayer_id', 'created_at', 'id'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'idx_webhook_deliveries_relayer');
  }
}
