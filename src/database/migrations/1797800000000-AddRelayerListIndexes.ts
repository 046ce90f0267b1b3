import { type MigrationInterface, type QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { dialectOf } from '../service-data-source';

const SEARCH_INDEX = 'idx_relayers_search';
const BALANCE_INDEX = 'idx_relayer_checks_balance_order';
const CHECKED_INDEX = 'idx_relayer_checks_checked_at';

/**
 * docs/reference/relayers.md#37-what-a-page-costs: the indexes of the list's search and orders.
 * - `idx_relayers_search`: every name (with the case of letters ignored, as the order by name compares
 *   them: `dialect.caseless`), id, address and creation time. It gives `sort=name`, and a search reads it
 *   whole instead of the table. On SQLite the collation is part of the index: a later migration that has
 *   TypeORM rebuild `relayers` (its addColumn, dropColumn...) rebuilds indexes from their column names
 *   alone and must create this one again as here.
 * - `relayer_checks.balance_order` (RelayerChecksRepository writes it with the balance: `balanceOrder`,
 *   its length in three digits then its digits, so that the text sorts as the number), filled here for
 *   the balances already read, and the indexes of `sort=balance` and `sort=checked_at`.
 */
export class AddRelayerListIndexes1797800000000 implements MigrationInterface {
  name = 'AddRelayerListIndexes1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    // TableIndex has no collation for a column: the one SQL both databases read.
    await queryRunner.query(
      `CREATE INDEX ${SEARCH_INDEX} ON relayers (${dialect.caseless('name')}, id, address, created_at)`,
    );
    await queryRunner.addColumn(
      'relayer_checks',
      new TableColumn({ name: 'balance_order', type: 'varchar', length: '103', isNullable: true }),
    );
    // CONCAT and SUBSTR from the end: SQLite (3.44 and later) and MySQL alike; LENGTH of digits is theirs.
    await queryRunner.query(
      "UPDATE relayer_checks SET balance_order = CONCAT(SUBSTR(CONCAT('00', LENGTH(balance)), -3), balance) " +
        'WHERE balance IS NOT NULL',
    );
    await queryRunner.createIndex(
      'relayer_checks',
      new TableIndex({ name: BALANCE_INDEX, columnNames: ['balance_order', 'relayer_id'] }),
    );
    await queryRunner.createIndex(
      'relayer_checks',
      new TableIndex({ name: CHECKED_INDEX, columnNames: ['checked_at', 'relayer_id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('relayer_checks', CHECKED_INDEX);
    await queryRunner.dropIndex('relayer_checks', BALANCE_INDEX);
    await queryRunner.dropColumn('relayer_checks', 'balance_order');
    await queryRunner.dropIndex('relayers', SEARCH_INDEX);
  }
}
