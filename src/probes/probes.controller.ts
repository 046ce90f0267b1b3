import { Controller, Get, Header, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
} from '@nestjs/terminus';
import type { Response } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { Public } from '../common/auth/public.decorator';
import { RawResponse } from '../common/http/raw-response.decorator';
import { REDIS_CLIENT } from '../common/redis/redis.module';
import { DatabaseLifecycle } from '../database/database-lifecycle';
import { MIGRATIONS_TABLE } from '../database/data-source-options';
import { DatabaseOptional } from '../database/database-ready.guard';
import { LifecycleState } from './lifecycle-state';

const CHECK_TIMEOUT_MS = 3000;
const READINESS_QUERY = `SELECT 1 FROM ${MIGRATIONS_TABLE} LIMIT 1`;

@ApiTags('health')
@Public()
@DatabaseOptional()
@Controller()
export class ProbesController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: DatabaseLifecycle,
    private readonly lifecycle: LifecycleState,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {}

  @Get('ready')
  @RawResponse()
  @HealthCheck()
  @Header('Cache-Control', 'no-store')
  @ApiServiceUnavailableResponse({ description: 'A component is down (Terminus body)' })
  async readiness(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult | object> {
    try {
      return await this.health.check([
        ...(this.lifecycle.draining ? [() => this.indicators.check('shutdown').down()] : []),
        () =>
          this.ping('database', async () => {
            if (!this.database.isReady) throw new Error('not connected or migrations not applied');
            // A table, not `SELECT 1`, which a Galera node outside the primary component still answers.
            await this.dataSource.query(READINESS_QUERY);
          }),
        ...(this.redis ? [() => this.ping('redis', () => (this.redis as Redis).ping())] : []),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      return error.getResponse() as object;
    }
  }

  /** What `work` resolves to is left out of the answer. */
  private ping(key: string, work: () => Promise<unknown>) {
    return this.indicators
      .check(key)
      .attempt(async () => {
        await work();
      })
      .withTimeout(CHECK_TIMEOUT_MS);
  }
}
