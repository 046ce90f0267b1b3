import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RedisModule } from '../common/redis/redis.module';
import { HealthController } from './health.controller';
import { LifecycleState } from './lifecycle-state';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), RedisModule],
  controllers: [HealthController],
  providers: [LifecycleState],
  exports: [LifecycleState],
})
export class HealthModule {}
