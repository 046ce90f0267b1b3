import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/app-config.module';
import { errorAnswer } from './problem-details';
import { RequestDeadline } from './request-deadline';

/** A plain timer: cheaper than an rxjs timeout, and it covers reading a slow body too. */
@Injectable()
export class RequestTimeoutMiddleware implements NestMiddleware {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const timeoutMs = this.config.http.requestTimeoutMs;
    const deadline = new RequestDeadline(Date.now() + timeoutMs);
    const timer = setTimeout(() => {
      if (res.headersSent || !deadline.expire()) return;
      // Answered here, not by the filter: in the same form (docs/reference/envelope-and-errors.md#4-problem-details).
      const answer = errorAnswer(req.headers.accept, req.originalUrl, {
        status: 504,
        message: 'Gateway Timeout',
      });
      res.vary('Accept').status(504).type(answer.contentType).json(answer.body);
    }, timeoutMs);
    const clear = () => clearTimeout(timer);
    res.once('finish', clear);
    res.once('close', clear);
    deadline.run(next);
  }
}
