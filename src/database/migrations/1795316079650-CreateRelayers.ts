import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

export class CreateRelayers1795316079650 implements MigrationInterface {
  name = 'CreateRelayers1795316079650';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'relayers',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'name', type: 'varchar', length: '255', isNullable: false },
          { name: 'network', type: 'varchar', length: '100', isNullable: false },
          { name: 'network_type', type: 'varchar', length: '16', isNullable: false },
          { name: 'address', type: 'varchar', length: '128', isNullable: false },
          { name: 'signer_id', type: 'varchar', length: '36', isNullable: false },
          { name: 'notification_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'paused', type: 'boolean', isNullable: false },
          { name: 'system_disabled', type: 'boolean', isNullable: false },
          { name: 'disabled_reason', type: 'text', isNullable: true },
          { name: 'custom_rpc_urls', type: 'text', isNullable: true },
          // JSON text written with every digit of big integers (wei amounts stay exact).
          { name: 'policies', type: 'text', isNullable: true },
          { name: 'version', type: 'integer', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    // One signer serves at most one relayer per (network type, network), even under racing creates.
    await queryRunner.createIndex(
      'relayers',
      new TableIndex({
        name: 'uq_relayers_signer_network',
        columnNames: ['network_type', 'network', 'signer_id'],
        isUnique: true,
      }),
    );
    await queryRunner.createIndex(
      'relayers',
      new TableIndex({ name: 'idx_relayers_created_at_id', columnNames: ['created_at', 'id'] }),
    );
    await queryRunner.createIndex(
      'relayers',
      new TableIndex({ name: 'idx_relayers_notification_id', columnNames: ['notification_id'] }),
    );
    // A notification still referenced cannot be deleted, even when the delete races a relayer write.
    await queryRunner.createForeignKey(
      'relayers',
      new TableForeignKey({
        name: 'fk_relayers_notification',
        columnNames: ['notification_id'],
        referencedTableName: 'notifications',
        referencedColumnNames: ['id'],
        onDelete: 'RESTRICT',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('relayers');
  }
}
