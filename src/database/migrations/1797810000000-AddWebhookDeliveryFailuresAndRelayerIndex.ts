import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const DELIVERIES = 'webhook_deliveries';
const FAILED_INDEX = 'idx_webhook_deliveries_failed';
const BY_RELAYER_INDEX = 'idx_webhook_deliveries_by_relayer';
/** Deliveries updated per statement: small write sets, also on Galera. */
const CHUNK = 500;

/**
 * docs/reference/webhooks.md#93-the-fields: when a delivery last ended failed, and with what error,
 * in columns that a replay or a retry (which set it pending again) and a later success leave as they
 * are, so that the stats and the hourly series (docs/reference/webhooks.md#95-the-hourly-series)
 * still know of the failure; filled from the deliveries failed now (a failure a replay already set
 * pending again is not known any more). An index on (target, failed_at) makes the series' failures
 * and the last failure ranges of it.
 *
 * docs/reference/webhooks.md#312-the-deliveries-of-one-relayer: the deliveries about one relayer to
 * every target, newest first, are a range of (relayer_id, created_at, id); that of 1797500000000
 * starts with the target and cannot serve them (each target's range, then a sort of them all).
 */
export class AddWebhookDeliveryFailuresAndRelayerIndex1797810000000 implements MigrationInterface {
  name = 'AddWebhookDeliveryFailuresAndRelayerIndex1797810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns(DELIVERIES, [
      new TableColumn({ name: 'failed_at', type: 'datetime', precision: 3, isNullable: true }),
      new TableColumn({ name: 'failed_error', type: 'varchar', length: '500', isNullable: true }),
    ]);
    for (let from = ''; ;) {
      const ids = (await queryRunner.query(
        `SELECT id FROM ${DELIVERIES} WHERE id > ? ORDER BY id LIMIT ${CHUNK}`,
        [from],
      )) as Array<{ id: string }>;
      const last = ids.at(-1);
      if (last === undefined) break;
      await queryRunner.query(
        `UPDATE ${DELIVERIES} SET failed_at = ended_at, failed_error = last_error
          WHERE status = 'failed' AND id > ? AND id <= ?`,
        [from, last.id],
      );
      from = last.id;
    }
    await queryRunner.createIndex(
      DELIVERIES,
      new TableIndex({ name: FAILED_INDEX, columnNames: ['notification_id', 'failed_at'] }),
    );
    await queryRunner.createIndex(
      DELIVERIES,
      new TableIndex({ name: BY_RELAYER_INDEX, columnNames: ['relayer_id', 'created_at', 'id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex(DELIVERIES, BY_RELAYER_INDEX);
    await queryRunner.dropIndex(DELIVERIES, FAILED_INDEX);
    await queryRunner.dropColumn(DELIVERIES, 'failed_error');
    await queryRunner.dropColumn(DELIVERIES, 'failed_at');
  }
}
