import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RawResponse } from '../common/http/raw-response.decorator';
import { DatabaseOptional } from '../database/database-ready.guard';
import { MetricsService } from './metrics.service';

/** Prometheus text format at /metrics (outside /api/v1), behind the API key like every route. */
@ApiTags('metrics')
@ApiBearerAuth()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @RawResponse()
  @DatabaseOptional()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOkResponse({ description: 'Prometheus text exposition format' })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
