import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/webhooks.md#9-stats: the duration of a delivery's last attempt (null for deliveries
 * attempted before this column, and for those never attempted), and an index that holds every column
 * the stats read, so that they are ranges of it: the counts and latencies of a window are one range
 * per status on `ended_at`, and the last delivered or failed one is the end of its status's range.
 */
export class AddWebhookDeliveryLatencyAndStatsIndex1797300000000 implements MigrationInterface {
  name = 'AddWebhookDeliveryLatencyAndStatsIndex1797300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'webhook_deliveries',
      new TableColumn({ name: 'latency_ms', type: 'integer', isNullable: true }),
    );
    await queryRunner.createIndex(
      'webhook_deliveries',
      new TableIndex({
        name: 'idx_webhook_deliveries_stats',
        columnNames: ['notification_id', 'status', 'ended_at', 'attempts', 'latency_ms'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_deliveries', 'idx_webhook_deliveries_stats');
    await queryRunner.dropColumn('webhook_deliveries', 'latency_ms');
  }
}
