import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyKeysService } from './idempotency-keys.service';

/** docs/reference/safe-writes.md; the interceptor is registered by the app module, where the order is decided. */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKeyEntity])],
  providers: [IdempotencyKeysRepository, IdempotencyKeysService],
  exports: [IdempotencyKeysService],
})
export class IdempotencyModule {}
