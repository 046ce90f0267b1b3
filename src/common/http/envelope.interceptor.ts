import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { catchError, map, Observable, throwError } from 'rxjs';
import { recordRouteError } from './api-exception.filter';
import { Tagged } from './tagged';
import { Page } from './page.dto';
import { RAW_RESPONSE } from './raw-response.decorator';

export function successEnvelope(data: unknown) {
  if (data instanceof Page) {
    const page = data as Page<unknown>;
    return {
      success: true,
      data: page.items,
      error: null,
      pagination: {
        current_page: page.query.page,
        per_page: page.query.per_page,
        total_items: page.totalItems,
      },
    };
  }
  return { success: true, data, error: null };
}

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const answer = next.handle().pipe(
      catchError((error: unknown) => {
        recordRouteError(error);
        return throwError(() => error);
      }),
    );
    if (this.reflector.get<boolean>(RAW_RESPONSE, context.getHandler())) return answer;
    return answer.pipe(
      map((data: unknown) => {
        if (!(data instanceof Tagged)) return successEnvelope(data);
        context.switchToHttp().getResponse<Response>().setHeader('ETag', data.etag);
        return successEnvelope(data.data);
      }),
    );
  }
}
