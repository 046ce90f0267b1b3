import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/keys-and-audit.md#3-relayer-scope: the relayers a key may see, a JSON array of ids and
 * prefixes ending in `*` (at most 100 of at most 36 characters); null for every relayer, as every key
 * had before.
 */
export class AddApiKeyRelayerScope1797400000000 implements MigrationInterface {
  name = 'AddApiKeyRelayerScope1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'api_keys',
      new TableColumn({ name: 'relayer_ids', type: 'text', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('api_keys', 'relayer_ids');
  }
}
