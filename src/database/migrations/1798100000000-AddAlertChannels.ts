import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/alert-channels.md: alert channels are delivery targets of other types in
 * `notifications`, their configuration in a column of its own; the lists of each kind read the index
 * by type in their order.
 */
export class AddAlertChannels1798100000000 implements MigrationInterface {
  name = 'AddAlertChannels1798100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'notifications',
      new TableColumn({ name: 'channel_config', type: 'text', isNullable: true }),
    );
    await queryRunner.createIndex(
      'notifications',
      new TableIndex({ name: 'idx_notifications_type', columnNames: ['type', 'created_at', 'id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('notifications', 'idx_notifications_type');
    await queryRunner.dropColumn('notifications', 'channel_config');
  }
}
