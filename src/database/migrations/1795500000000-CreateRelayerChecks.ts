import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

export class CreateRelayerChecks1795500000000 implements MigrationInterface {
  name = 'CreateRelayerChecks1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'relayer_checks',
        columns: [
          { name: 'relayer_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'next_check_at', type: 'datetime', precision: 3, isNullable: false },
          // Which instance is checking it, until when: claimed by a conditional UPDATE.
          { name: 'lease_owner', type: 'varchar', length: '64', isNullable: true },
          { name: 'lease_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'checked_at', type: 'datetime', precision: 3, isNullable: true },
          // Decimal strings: wei, lamports and stroops exceed 2^53.
          { name: 'balance', type: 'varchar', length: '100', isNullable: true },
          { name: 'nonce', type: 'varchar', length: '40', isNullable: true },
          { name: 'sequence_number', type: 'varchar', length: '40', isNullable: true },
          // Checks failed in a row (the back-off of a disabled relayer, retry_count of relayer_enabled).
          { name: 'failures', type: 'integer', isNullable: false },
        ],
      }),
    );
    await queryRunner.createIndex(
      'relayer_checks',
      new TableIndex({ name: 'idx_relayer_checks_due', columnNames: ['next_check_at'] }),
    );
    await queryRunner.createForeignKey(
      'relayer_checks',
      new TableForeignKey({
        name: 'fk_relayer_checks_relayer',
        columnNames: ['relayer_id'],
        referencedTableName: 'relayers',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
    // Relayers created before this migration are checked at once too.
    await queryRunner.query(
      'INSERT INTO relayer_checks (relayer_id, next_check_at, failures) SELECT id, created_at, 0 FROM relayers',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('relayer_checks');
  }
}
