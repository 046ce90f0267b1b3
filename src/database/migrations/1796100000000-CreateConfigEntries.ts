import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * The digest of each configuration-file entry as last applied (docs/reference/config-file.md), and
 * audit records whose actor has no id (the configuration file's).
 */
export class CreateConfigEntries1796100000000 implements MigrationInterface {
  name = 'CreateConfigEntries1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'config_entries',
        columns: [
          { name: 'kind', type: 'varchar', length: '16', isPrimary: true },
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'digest', type: 'varchar', length: '64', isNullable: false },
          { name: 'applied_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.changeColumn(
      'audit_events',
      'actor_id',
      new TableColumn({ name: 'actor_id', type: 'varchar', length: '36', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM audit_events WHERE actor_id IS NULL`);
    await queryRunner.changeColumn(
      'audit_events',
      'actor_id',
      new TableColumn({ name: 'actor_id', type: 'varchar', length: '36', isNullable: false }),
    );
    await queryRunner.dropTable('config_entries');
  }
}
