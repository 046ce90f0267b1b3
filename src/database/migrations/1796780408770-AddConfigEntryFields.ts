import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/config-file.md#22-changed-entries-are-applied: the SHA-256 of each field of a
 * configuration-file entry as last applied (never the values: a notification's signing key is one),
 * so that a changed entry writes only the fields the file changed. Null for the rows applied before
 * this migration: filled at the next start whose entry is unchanged.
 *
 * The timestamp sorts after the last migration of the folder (TypeORM runs them in that order).
 */
export class AddConfigEntryFields1796780408770 implements MigrationInterface {
  name = 'AddConfigEntryFields1796780408770';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'config_entries',
      new TableColumn({ name: 'fields', type: 'text', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('config_entries', 'fields');
  }
}
