import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/webhooks.md#10-pausing-a-target and #rotating-the-signing-key: a target's pause
 * and its previous signing key (kept during an overlap) on the notification; the count of its
 * deliveries that ended failed in a row beside its lease, where the dispatcher writes.
 */
export class AddNotificationState1797200000000 implements MigrationInterface {
  name = 'AddNotificationState1797200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('notifications', [
      new TableColumn({ name: 'paused_at', type: 'datetime', precision: 3, isNullable: true }),
      new TableColumn({ name: 'paused_reason', type: 'varchar', length: '600', isNullable: true }),
      new TableColumn({ name: 'previous_signing_key', type: 'text', isNullable: true }),
      new TableColumn({
        name: 'signing_key_overlap_until',
        type: 'datetime',
        precision: 3,
        isNullable: true,
      }),
    ]);
    await queryRunner.addColumn(
      'webhook_target_leases',
      new TableColumn({ name: 'consecutive_failures', type: 'integer', default: 0 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('webhook_target_leases', 'consecutive_failures');
    for (const column of [
      'signing_key_overlap_until',
      'previous_signing_key',
      'paused_reason',
      'paused_at',
    ]) {
      await queryRunner.dropColumn('notifications', column);
    }
  }
}
