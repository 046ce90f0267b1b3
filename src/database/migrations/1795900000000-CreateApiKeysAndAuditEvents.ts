import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';

export class CreateApiKeysAndAuditEvents1795900000000 implements MigrationInterface {
  name = 'CreateApiKeysAndAuditEvents1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'name', type: 'varchar', length: '255', isNullable: false },
          { name: 'permissions', type: 'text', isNullable: false },
          { name: 'key_digest', type: 'varchar', length: '64', isNullable: false },
          { name: 'key_prefix', type: 'varchar', length: '16', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'expires_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'last_used_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'revoked_at', type: 'datetime', precision: 3, isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'api_keys',
      new TableIndex({ name: 'uq_api_keys_key_digest', columnNames: ['key_digest'], isUnique: true }),
    );
    await queryRunner.createIndex(
      'api_keys',
      new TableIndex({ name: 'idx_api_keys_created_at_id', columnNames: ['created_at', 'id'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'audit_events',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'actor_type', type: 'varchar', length: '16', isNullable: false },
          { name: 'actor_id', type: 'varchar', length: '36', isNullable: false },
          { name: 'actor_name', type: 'varchar', length: '255', isNullable: false },
          { name: 'action', type: 'varchar', length: '32', isNullable: false },
          { name: 'resource_type', type: 'varchar', length: '16', isNullable: false },
          { name: 'resource_id', type: 'varchar', length: '120', isNullable: false },
          { name: 'request_id', type: 'varchar', length: '128', isNullable: false },
          { name: 'before', type: 'text', isNullable: true },
          { name: 'after', type: 'text', isNullable: true },
        ],
      }),
    );
    // Newest first, and the filters: by resource, by actor.
    await queryRunner.createIndex(
      'audit_events',
      new TableIndex({ name: 'idx_audit_events_at_id', columnNames: ['at', 'id'] }),
    );
    await queryRunner.createIndex(
      'audit_events',
      new TableIndex({
        name: 'idx_audit_events_resource',
        columnNames: ['resource_type', 'resource_id', 'at'],
      }),
    );
    await queryRunner.createIndex(
      'audit_events',
      new TableIndex({ name: 'idx_audit_events_actor', columnNames: ['actor_id', 'at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('audit_events');
    await queryRunner.dropTable('api_keys');
  }
}
