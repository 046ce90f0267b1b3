import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The extension's table. It runs with the service's migrations, under the same lock on MySQL, and is
 * recorded in the same `migrations` table: the class name ends with a timestamp later than the service's.
 */
export class CreateExtNotes1900000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'ext_notes',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'relayer_id', type: 'varchar', length: '36' },
          { name: 'text', type: 'varchar', length: '500' },
        ],
      }),
    );
    await runner.createIndex(
      'ext_notes',
      new TableIndex({ name: 'IDX_ext_notes_relayer', columnNames: ['relayer_id'] }),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('ext_notes');
  }
}
