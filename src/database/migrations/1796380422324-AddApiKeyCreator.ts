import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/keys-and-audit.md#110-a-keys-children: the key that created a key (null when the administrator
 * did), so that a key's children expire with it and are revoked with it. Indexed: a revocation finds a
 * key's children by it.
 */
export class AddApiKeyCreator1796380422324 implements MigrationInterface {
  name = 'AddApiKeyCreator1796380422324';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'api_keys',
      new TableColumn({ name: 'created_by_key_id', type: 'varchar', length: '36', isNullable: true }),
    );
    await queryRunner.createIndex(
      'api_keys',
      new TableIndex({ name: 'idx_api_keys_created_by_key_id', columnNames: ['created_by_key_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('api_keys', 'idx_api_keys_created_by_key_id');
    await queryRunner.dropColumn('api_keys', 'created_by_key_id');
  }
}
