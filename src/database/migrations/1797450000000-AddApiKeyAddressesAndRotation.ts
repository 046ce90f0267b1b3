import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from and
 * docs/reference/keys-and-audit.md#42-rotation: the CIDRs a key may be used from (null: anywhere),
 * and the secret a rotation replaced with the end of its overlap. Indexed: a request's secret is
 * looked up in both digests.
 */
export class AddApiKeyAddressesAndRotation1797450000000 implements MigrationInterface {
  name = 'AddApiKeyAddressesAndRotation1797450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('api_keys', [
      new TableColumn({ name: 'allowed_cidrs', type: 'text', isNullable: true }),
      new TableColumn({ name: 'previous_key_digest', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'previous_key_expires_at', type: 'datetime', precision: 3, isNullable: true }),
    ]);
    await queryRunner.createIndex(
      'api_keys',
      new TableIndex({ name: 'idx_api_keys_previous_key_digest', columnNames: ['previous_key_digest'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('api_keys', 'idx_api_keys_previous_key_digest');
    await queryRunner.dropColumns('api_keys', [
      'previous_key_expires_at',
      'previous_key_digest',
      'allowed_cidrs',
    ]);
  }
}
