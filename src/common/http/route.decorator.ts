import { applyDecorators, HttpCode, SetMetadata, type Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import {
  ANY_AUTHENTICATED,
  AnyAuthenticatedKey,
  RequirePermission,
  type RequiredPermission,
} from '../auth/require-permission.decorator';
import { NoBody, OptionalBody } from './no-body.decorator';
import {
  ApiDryRun,
  ApiEnvelope,
  ApiErrors,
  ApiIfMatch,
  ApiJsonBody,
  GLOBAL_ERRORS,
} from './openapi.decorators';

/** A list route (`list: true`): the envelope interceptor tags its answer (docs/reference/pagination.md#16-etag-and-304). */
export const LIST_ROUTE = 'http:list';

export interface RouteOptions {
  /** `'none'`: any authenticated key, whatever it holds (AnyAuthenticatedKey). */
  readonly permission:
    RequiredPermission | readonly [RequiredPermission, ...RequiredPermission[]] | typeof ANY_AUTHENTICATED;
  readonly alsoForbidden?: string;
  readonly status: number;
  readonly response: Type<unknown> | StringConstructor;
  readonly list?: boolean;
  readonly etag?: boolean;
  readonly body?: Type<unknown>;
  readonly noBody?: boolean;
  /** `body` may be left out (read as `{}`). */
  readonly optionalBody?: boolean;
  readonly ifMatch?: boolean;
  readonly dryRun?: boolean;
  /** Statuses beyond the global ones and those the options above imply. */
  readonly errors?: readonly number[];
}

export function Route(options: RouteOptions): MethodDecorator {
  const errors = new Set([...GLOBAL_ERRORS, ...(options.errors ?? [])]);
  if (options.list || options.body) errors.add(400);
  if (options.body) [413, 415].forEach((status) => errors.add(status));
  if (options.ifMatch) errors.add(412);
  return applyDecorators(
    options.permission === ANY_AUTHENTICATED
      ? AnyAuthenticatedKey()
      : RequirePermission(options.permission, { alsoForbidden: options.alsoForbidden }),
    HttpCode(options.status),
    ...(options.body
      ? [ApiJsonBody(), ApiBody({ type: options.body, required: options.optionalBody !== true })]
      : []),
    ...(options.noBody ? [NoBody()] : []),
    ...(options.list ? [SetMetadata(LIST_ROUTE, true)] : []),
    ...(options.optionalBody ? [OptionalBody()] : []),
    ApiEnvelope(options.response, options.status, { list: options.list, etag: options.etag }),
    ...(options.ifMatch ? [ApiIfMatch()] : []),
    ...(options.dryRun ? [ApiDryRun()] : []),
    ApiErrors(...[...errors].sort((a, b) => a - b)),
  );
}
