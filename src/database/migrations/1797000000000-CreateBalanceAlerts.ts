import { type MigrationInterface, type QueryRunner, Table, TableColumn, TableForeignKey } from 'typeorm';

/** docs/reference/balance-alerts.md: the thresholds, and the crossing state each check compares with. */
export class CreateBalanceAlerts1797000000000 implements MigrationInterface {
  name = 'CreateBalanceAlerts1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'network_balance_alerts',
        columns: [
          { name: 'network_id', type: 'varchar', length: '120', isPrimary: true },
          // A decimal string in the network's base unit (wei amounts exceed 2^53).
          { name: 'threshold', type: 'varchar', length: '1000', isNullable: false },
          { name: 'version', type: 'integer', isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'relayer_balance_alerts',
        columns: [
          { name: 'relayer_id', type: 'varchar', length: '36', isPrimary: true },
          // NULL: no alert for this relayer, whatever its network says.
          { name: 'threshold', type: 'varchar', length: '1000', isNullable: true },
          { name: 'version', type: 'integer', isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createForeignKey(
      'relayer_balance_alerts',
      new TableForeignKey({
        name: 'fk_relayer_balance_alerts_relayer',
        columnNames: ['relayer_id'],
        referencedTableName: 'relayers',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
    // The last check's verdict on the threshold: 1 below, 0 at or above, NULL not compared.
    await queryRunner.addColumn(
      'relayer_checks',
      new TableColumn({ name: 'balance_low', type: 'boolean', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('relayer_checks', 'balance_low');
    await queryRunner.dropTable('relayer_balance_alerts');
    await queryRunner.dropTable('network_balance_alerts');
  }
}
