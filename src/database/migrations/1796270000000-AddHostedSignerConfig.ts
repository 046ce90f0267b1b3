import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/kms-signers.md: a signer whose key a key service holds keeps its non-secret config
 * fields (shown in responses) in `config`; its credentials go, encrypted, where a plain signer's
 * key goes (`encrypted_key`). Null for plain signers.
 */
export class AddHostedSignerConfig1796270000000 implements MigrationInterface {
  name = 'AddHostedSignerConfig1796270000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'signers',
      new TableColumn({ name: 'config', type: 'text', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('signers', 'config');
  }
}
