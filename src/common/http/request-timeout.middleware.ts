import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { errorEnvelope } from './api-exception.filter';
import { RequestDeadline } from './request-deadline';

/**
 * A request still unanswered after REQUEST_TIMEOUT_MS gets a 504 envelope instead of hanging the
 * client (and the load balancer). A plain timer per request: cheaper on the hot path than an rxjs
 * timeout in an interceptor, and it also covers the time spent reading a slow body. The 504 means
 * nothing changed: the request's deadline makes a commit that has not started yet roll back.
 */
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
