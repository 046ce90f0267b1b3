import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { dialectOf } from '../service-data-source';

const SAMPLES = 'relayer_balance_samples';

/**
 * docs/reference/relayer-health.md#35-balance-history: the balances the health checks read, one row
 * each time a relayer's changes. Its primary key (relayer_id, at) is the order a history is read in;
 * an index on `at` alone lets the prune find the samples past 30 days without reading the others.
 * Deleted with the relayer. Each relayer already checked gets its stored balance as a first sample,
 * at its last check: a history starts at the value the relayer had then.
 */
export class CreateRelayerBalanceSamples1797811000000 implements MigrationInterface {
  name = 'CreateRelayerBalanceSamples1797811000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    await queryRunner.createTable(
      new Table({
        name: SAMPLES,
        columns: [
          // Refers to relayers.id, compared byte for byte as it (1797600000000-ExactIds).
          { name: 'relayer_id', type: 'varchar', length: '36', isPrimary: true, ...dialect.exactAscii },
          { name: 'at', type: 'datetime', precision: 3, isPrimary: true },
          // A decimal string in the smallest unit, as relayer_checks.balance: wei exceed 2^53.
          { name: 'balance', type: 'varchar', length: '100', isNullable: false },
        ],
        foreignKeys: [
          {
            name: 'fk_relayer_balance_samples_relayer',
            columnNames: ['relayer_id'],
            referencedTableName: 'relayers',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createIndex(
      SAMPLES,
      new TableIndex({ name: 'idx_relayer_balance_samples_at', columnNames: ['at'] }),
    );
    await queryRunner.query(
      `INSERT INTO ${SAMPLES} (relayer_id, at, balance)
       SELECT relayer_id, checked_at, balance FROM relayer_checks
        WHERE balance IS NOT NULL AND checked_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(SAMPLES);
  }
}
