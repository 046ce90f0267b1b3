import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, Observable, throwError, timeout, TimeoutError } from 'rxjs';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { GatewayTimeoutError } from '../errors/domain-errors';

/** A handler that runs past REQUEST_TIMEOUT_MS answers 504 instead of hanging the client. */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout(this.config.http.requestTimeoutMs),
      catchError((error: unknown) =>
        throwError(() => (error instanceof TimeoutError ? new GatewayTimeoutError() : error)),
      ),
    );
  }
}
