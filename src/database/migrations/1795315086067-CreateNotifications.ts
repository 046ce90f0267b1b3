import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

export class CreateNotifications1795315086067 implements MigrationInterface {
  name = 'CreateNotifications1795315086067';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'notifications',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'type', type: 'varchar', length: '16', isNullable: false },
          { name: 'url', type: 'varchar', length: '2048', isNullable: false },
          { name: 'signing_key', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createIndex(
      'notifications',
      new TableIndex({ name: 'idx_notifications_created_at_id', columnNames: ['created_at', 'id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notifications');
  }
}
