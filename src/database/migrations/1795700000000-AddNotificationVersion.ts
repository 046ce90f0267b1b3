import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/** Notifications get the version their entity tag is derived from (docs/reference/safe-writes.md); existing rows start at 1. */
export class AddNotificationVersion1795700000000 implements MigrationInterface {
  name = 'AddNotificationVersion1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'notifications',
      new TableColumn({ name: 'version', type: 'integer', isNullable: false, default: 1 }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('notifications', 'version');
  }
}
