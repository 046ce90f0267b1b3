import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { dialectOf } from '../service-data-source';

export class CreateIdempotencyKeys1795800000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    // Keys compare byte for byte (`abc` and `ABC` are two keys); printable ASCII keeps the primary key small.
    const exact = dialect.exactAscii;
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'scope', type: 'varchar', length: '64', isPrimary: true, ...exact },
          { name: 'idempotency_key', type: 'varchar', length: '255', isPrimary: true, ...exact },
          { name: 'request', type: 'varchar', length: '2048', isNullable: false },
          { name: 'request_digest', type: 'varchar', length: '64', isNullable: false },
          { name: 'state', type: 'varchar', length: '16', isNullable: false },
          { name: 'claim_token', type: 'varchar', length: '36', isNullable: false },
          { name: 'response_status', type: 'integer', isNullable: true },
          // A relayer's answer can outgrow MySQL's TEXT (64 KiB): its body may take up to 1 MiB.
          { name: 'response_body', type: String(dialect.documentType), isNullable: true },
          { name: 'response_headers', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createIndex(
      'idempotency_keys',
      new TableIndex({ name: 'idx_idempotency_keys_created_at', columnNames: ['created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
