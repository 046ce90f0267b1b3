import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { answeredErrorOf } from '../common/http/api-exception.filter';
import { MetricsService } from './metrics.service';

@Injectable()
export class MetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      const labels = { method: req.method, route, status: String(res.statusCode) };
      this.metrics.requests.inc(labels);
      this.metrics.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      const answered = answeredErrorOf(res);
      if (answered === 'rate-limited') this.metrics.rateLimited.inc();
      else if (answered === 'database-unavailable') this.metrics.databaseErrors.inc({ kind: 'unavailable' });
      else if (answered === 'database-query') this.metrics.databaseErrors.inc({ kind: 'query' });
    });
    next();
  }
}
