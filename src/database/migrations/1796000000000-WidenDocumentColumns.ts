import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../service-data-source';

/** The columns that hold a resource, an audit snapshot or a webhook body: [table, column, nullable]. */
const DOCUMENT_COLUMNS: ReadonlyArray<readonly [string, string, boolean]> = [
  ['relayers', 'policies', true],
  ['relayers', 'custom_rpc_urls', true],
  ['relayers', 'disabled_reason', true],
  ['audit_events', 'before', true],
  ['audit_events', 'after', true],
  ['webhook_deliveries', 'body', false],
  ['network_rpc_urls', 'rpc_urls', false],
];

/**
 * docs/reference/hardening.md, whole resources on every database: MySQL's TEXT holds 64 KiB, less than a Solana
 * relayer's policies with every list at its maximum (about 80 KB), and its audit snapshots and
 * webhook bodies are larger still. MEDIUMTEXT (16 MiB) holds anything the 1 MiB body limit lets
 * in. idempotency_keys.response_body is MEDIUMTEXT from its start. SQLite's TEXT has no limit:
 * nothing to do there.
 *
 * A plain MODIFY: QueryRunner.changeColumn drops and re-adds a MySQL column whose type changes,
 * which would lose every stored value.
 */
export class WidenDocumentColumns1796000000000 implements MigrationInterface {
  name = 'WidenDocumentColumns1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.retype(queryRunner, 'MEDIUMTEXT');
  }

  /** Back to TEXT: refused by MySQL in strict mode while a stored value is longer than 64 KiB. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await this.retype(queryRunner, 'TEXT');
  }

  private async retype(queryRunner: QueryRunner, type: string): Promise<void> {
    // SQLite's TEXT is unbounded already: only a dialect with a wider document type has work here.
    if (dialectOf(queryRunner.connection).documentType === 'text') return;
    for (const [table, column, nullable] of DOCUMENT_COLUMNS) {
      await queryRunner.query(
        `ALTER TABLE \`${table}\` MODIFY \`${column}\` ${type} ${nullable ? 'NULL' : 'NOT NULL'}`,
      );
    }
  }
}
