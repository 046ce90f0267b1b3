import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

export class CreateSignersAndNetworkRpcUrls1795600000000 implements MigrationInterface {
  name = 'CreateSignersAndNetworkRpcUrls1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'signers',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'type', type: 'varchar', length: '16', isNullable: false },
          { name: 'encrypted_key', type: 'text', isNullable: false },
          { name: 'addresses', type: 'text', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createIndex(
      'signers',
      new TableIndex({ name: 'idx_signers_created_at_id', columnNames: ['created_at', 'id'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'network_rpc_urls',
        columns: [
          { name: 'network_id', type: 'varchar', length: '120', isPrimary: true },
          { name: 'rpc_urls', type: 'text', isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    // Deleting a signer asks which relayers use it.
    await queryRunner.createIndex(
      'relayers',
      new TableIndex({ name: 'idx_relayers_signer_id', columnNames: ['signer_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('relayers', 'idx_relayers_signer_id');
    await queryRunner.dropTable('network_rpc_urls');
    await queryRunner.dropTable('signers');
  }
}
