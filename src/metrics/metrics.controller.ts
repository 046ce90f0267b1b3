import { applyDecorators, Controller, Get, Header, HttpCode, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { ApiErrors } from '../common/http/openapi.decorators';
import { RawResponse } from '../common/http/raw-response.decorator';
import { DatabaseOptional } from '../database/database-ready.guard';
import { MetricsService } from './metrics.service';
import { RequirePermission } from '../common/auth/require-permission.decorator';

const prometheusText = {
  content: { [Registry.PROMETHEUS_CONTENT_TYPE]: { schema: { type: 'string' } } },
} as const;

const MetricsRoute = () => applyDecorators(RequirePermission('metrics:read'), HttpCode(200), RawResponse());

/** docs/reference/running.md#4-metrics: outside /api/v1 and the envelope. */
@ApiTags('metrics')
@ApiBearerAuth()
@DatabaseOptional()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @MetricsRoute()
  @ApiOkResponse({
    description: 'The name of every metric, sorted (a bare JSON array)',
    schema: { type: 'array', items: { type: 'string' }, example: ['http_requests_total'] },
  })
  @ApiErrors(401, 429, 500)
  listMetrics(): string[] {
    return this.metrics.names();
  }

  @Get('metrics/:metric_name')
  @MetricsRoute()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiParam({ name: 'metric_name', example: 'http_requests_total' })
  @ApiOkResponse({ description: 'That metric alone, in Prometheus text', ...prometheusText })
  @ApiErrors(401, 404, 429, 500)
  metricDetail(@Param('metric_name') name: string): Promise<string> {
    return this.metrics.metricText(name);
  }

  @Get('debug/metrics/scrape')
  @MetricsRoute()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @ApiOkResponse({ description: 'Every metric, in Prometheus text', ...prometheusText })
  @ApiErrors(401, 429, 500)
  scrapeMetrics(): Promise<string> {
    return this.metrics.scrape();
  }
}
