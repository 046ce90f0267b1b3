import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { catchError, map, Observable, throwError } from 'rxjs';
import { recordRouteError } from './api-exception.filter';
import { bodyTag, tagAnswer } from './conditional-get';
import { Tagged } from './tagged';
import { Page } from './page.dto';
import { RAW_RESPONSE } from './raw-response.decorator';
import { LIST_ROUTE } from './route.decorator';

export function successEnvelope(data: unknown) {
  if (data instanceof Page) {
    const page = data as Page<unknown>;
    if (page.cursor !== undefined) {
      return {
        success: true,
        data: page.items,
        error: null,
        pagination: { per_page: page.cursor.limit, next_cursor: page.cursor.next },
      };
    }
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
    const handler = context.getHandler();
    if (this.reflector.get<boolean>(RAW_RESPONSE, handler)) return answer;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    if (this.reflector.get<boolean>(LIST_ROUTE, handler)) {
      return answer.pipe(map((data: unknown) => sendTagged(request, response, successEnvelope(data))));
    }
    return answer.pipe(
      map((data: unknown) => {
        if (!(data instanceof Tagged)) return successEnvelope(data);
        tagAnswer(request, response, data.etag);
        return successEnvelope(data.data);
      }),
    );
  }
}

/**
 * A list's answer serialised here, once, and tagged with the digest of those bytes, which are the
 * ones sent (docs/reference/pagination.md#16-etag-and-304); Express answers 304 instead when the
 * client holds them already (conditional-get.ts).
 */
function sendTagged(request: Request, response: Response, envelope: object): string {
  const body = JSON.stringify(envelope);
  tagAnswer(request, response, bodyTag(body));
  response.type('json');
  return body;
}
