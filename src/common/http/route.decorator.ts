import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Permission } from '../auth/principal';
import { RequirePermission } from '../auth/require-permission.decorator';
import { NoBody } from './no-body.decorator';
import { ApiDryRun, ApiEnvelope, ApiErrors, ApiIfMatch, ApiJsonBody } from './openapi.decorators';

/** What every route of /api/v1 can answer: the bearer guard, the rate limit, the filter, the database. */
const GLOBAL_ERRORS = [401, 429, 500, 503];

export interface RouteOptions {
  /** The permission the route needs (RequirePermission), and a further 403 of its own. */
  readonly permission: Permission | readonly [Permission, ...Permission[]];
  readonly alsoForbidden?: string;
  /** The success status, and the model of its envelope (a list of it with `list`, which answers 400 for a bad page). */
  readonly status: number;
  readonly response: Type<unknown> | StringConstructor;
  readonly list?: boolean;
  /** The answer carries the resource's ETag (docs/reference/safe-writes.md). */
  readonly etag?: boolean;
  /** The JSON write body: answers 400, 413 and 415 too. */
  readonly body?: Type<unknown>;
  /** A POST that takes no body (NoBody). */
  readonly noBody?: boolean;
  /** `If-Match` is honoured: answers 412 too. */
  readonly ifMatch?: boolean;
  readonly dryRun?: boolean;
  /** The route's statuses beyond the global ones and those the options above imply. */
  readonly errors?: readonly number[];
}

/**
 * One decorator for what every route repeats: its permission, its success status and envelope,
 * its body, ETag, If-Match and dry run, and every error status it can answer.
 */
export function Route(options: RouteOptions): MethodDecorator {
  const errors = new Set([...GLOBAL_ERRORS, ...(options.errors ?? [])]);
  if (options.list || options.body) errors.add(400);
  if (options.body) [413, 415].forEach((status) => errors.add(status));
  if (options.ifMatch) errors.add(412);
  return applyDecorators(
    RequirePermission(options.permission, { alsoForbidden: options.alsoForbidden }),
    HttpCode(options.status),
    ...(options.body ? [ApiJsonBody(), ApiBody({ type: options.body })] : []),
    ...(options.noBody ? [NoBody()] : []),
    ApiEnvelope(options.response, options.status, { list: options.list, etag: options.etag }),
    ...(options.ifMatch ? [ApiIfMatch()] : []),
    ...(options.dryRun ? [ApiDryRun()] : []),
    ApiErrors(...[...errors].sort((a, b) => a - b)),
  );
}
