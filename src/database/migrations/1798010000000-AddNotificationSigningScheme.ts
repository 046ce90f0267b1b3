import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * docs/reference/webhooks.md#13-standard-webhooks: how a target's deliveries are signed; every target
 * there is keeps the reference system's headers alone.
 */
export class AddNotificationSigningScheme1798010000000 implements MigrationInterface {
  name = 'AddNotificationSigningScheme1798010000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'notifications',
      new TableColumn({ name: 'signing_scheme', type: 'varchar', length: '16', default: "'reference'" }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('notifications', 'signing_scheme');
  }
}
