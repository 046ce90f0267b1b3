import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { errorEnvelope } from './api-exception.filter';
import { RequestDeadline } from './request-deadline';

/** A plain timer: cheaper than an rxjs timeout, and it covers reading a slow body too. */
@Injectable()
export class RequestTimeoutMiddleware implements NestMiddleware {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  use(_req: Request, res: Response, next: NextFunction): void {
    const timeoutMs = this.config.http.requestTimeoutMs;
    const deadline = new RequestDeadline(Date.now() + timeoutMs);
    const timer = setTimeout(() => {
      if (!res.headersSent && deadline.expire()) res.status(504).json(errorEnvelope('Gateway Timeout'));
    }, timeoutMs);
    const clear = () => clearTimeout(timer);
    res.once('finish', clear);
    res.once('close', clear);
    deadline.run(next);
  }
}
