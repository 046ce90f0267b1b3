import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsListener } from './metrics-listener';
import { MetricsMiddleware } from './metrics.middleware';
import { MetricsService } from './metrics.service';
import { declareResource } from '../common/auth/resources';

// Its resource, permissions and audited type (docs/reference/extension-events.md).
declareResource({ name: 'metrics', permissions: ['metrics:read'] });

@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsListener],
  exports: [MetricsService],
})
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MetricsMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
