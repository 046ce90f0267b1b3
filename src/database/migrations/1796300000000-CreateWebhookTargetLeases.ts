import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/** docs/reference/webhooks.md#27-order: one sender per target at a time, across instances. */
export class CreateWebhookTargetLeases1796300000000 implements MigrationInterface {
  name = 'CreateWebhookTargetLeases1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'webhook_target_leases',
        columns: [
          { name: 'notification_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          { name: 'lease_until', type: 'datetime', precision: 3, isNullable: true },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_target_leases');
  }
}
