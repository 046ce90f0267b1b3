import { type MigrationInterface, type QueryRunner, Table, TableIndex } from 'typeorm';
import { dialectOf } from '../service-data-source';

/**
 * docs/access.md#signing-in-with-your-identity-provider: roles map an identity provider's groups to
 * permissions and a relayer scope; sessions are the people signed in (the cookie's digest, never the
 * cookie); sign-in attempts hold a login's `state`, `nonce` and PKCE verifier between the redirect to
 * the provider and its callback, on whichever instance the callback lands. A person's audit actor id is
 * `<issuer>#<sub>`: `audit_events.actor_id` grows from 36 to 255 characters (its index, (actor_id, at),
 * stays within MySQL's 3,072 bytes in utf8mb4).
 */
export class CreateRolesAndSessions1797900000000 implements MigrationInterface {
  name = 'CreateRolesAndSessions1797900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const dialect = dialectOf(queryRunner.connection);
    const exact = dialect.exactAscii;
    await queryRunner.createTable(
      new Table({
        name: 'roles',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          { name: 'permissions', type: 'text', isNullable: false },
          { name: 'relayer_ids', type: 'text', isNullable: true },
          { name: 'group_names', type: 'text', isNullable: false },
          { name: 'version', type: 'integer', isNullable: false, default: 1 },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'updated_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sessions',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true, ...exact },
          // SHA-256 of the cookie's value, hex.
          { name: 'token_digest', type: 'varchar', length: '64', isNullable: false, ...exact },
          { name: 'user_id', type: 'varchar', length: '255', isNullable: false, ...dialect.exactText },
          { name: 'user_name', type: 'varchar', length: '255', isNullable: false },
          { name: 'user_email', type: 'varchar', length: '255', isNullable: true },
          // The groups claim at sign-in: roles are matched against it at every request.
          { name: 'group_names', type: 'text', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'last_used_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'idle_expires_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'expires_at', type: 'datetime', precision: 3, isNullable: false },
          { name: 'ended_at', type: 'datetime', precision: 3, isNullable: true },
        ],
      }),
    );
    await queryRunner.createIndex(
      'sessions',
      new TableIndex({ name: 'idx_sessions_token_digest', columnNames: ['token_digest'], isUnique: true }),
    );
    await queryRunner.createIndex(
      'sessions',
      new TableIndex({ name: 'idx_sessions_expires_at', columnNames: ['expires_at'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sign_in_attempts',
        columns: [
          // SHA-256 of the `state` sent to the provider, hex: the callback finds its attempt by it.
          { name: 'state_digest', type: 'varchar', length: '64', isPrimary: true, ...exact },
          { name: 'id', type: 'varchar', length: '36', isNullable: false, ...exact },
          { name: 'nonce', type: 'varchar', length: '64', isNullable: false },
          { name: 'code_verifier', type: 'varchar', length: '128', isNullable: false },
          { name: 'created_at', type: 'datetime', precision: 3, isNullable: false },
        ],
      }),
    );
    await queryRunner.createIndex(
      'sign_in_attempts',
      new TableIndex({ name: 'idx_sign_in_attempts_created_at', columnNames: ['created_at'] }),
    );
    if (dialect.exactText.collation !== undefined) {
      const { charset, collation } = dialect.exactText;
      await queryRunner.query(
        `ALTER TABLE audit_events MODIFY actor_id varchar(255) CHARACTER SET ${charset} COLLATE ${collation} NULL`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sign_in_attempts');
    await queryRunner.dropTable('sessions');
    await queryRunner.dropTable('roles');
    const { charset, collation } = dialectOf(queryRunner.connection).exactText;
    if (collation !== undefined) {
      await queryRunner.query(`DELETE FROM audit_events WHERE CHAR_LENGTH(actor_id) > 36`);
      await queryRunner.query(
        `ALTER TABLE audit_events MODIFY actor_id varchar(36) CHARACTER SET ${charset} COLLATE ${collation} NULL`,
      );
    }
  }
}
