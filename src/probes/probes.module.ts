import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RedisModule } from '../common/redis/redis.module';
import { ProbesController } from './probes.controller';
import { LifecycleState } from './lifecycle-state';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), RedisModule],
  controllers: [ProbesController],
  providers: [LifecycleState],
  exports: [LifecycleState],
})
export class ProbesModule {}
