import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { errorEnvelopeSchema } from '../http/openapi.decorators';
import type { Permission } from './principal';

export const REQUIRED_PERMISSION = 'auth:requiredPermission';

/**
 * The permission a route needs (docs/reference/keys-and-audit.md), or the permissions, every one of them, when the
 * route reaches more than one resource (a delivery retry re-sends relayer data: docs/reference/hardening.md).
 * Every route that is not @Public() names one: the guard lets only the administrator through a
 * route without it, and the route inventory test fails on it. The OpenAPI document shows it as
 * `x-required-permission` (a list when several) and documents the 403; `alsoForbidden` names a
 * further refusal of the route's own (the API-key subset rule).
 */
export const RequirePermission = (
  permission: Permission | readonly [Permission, ...Permission[]],
  options: { alsoForbidden?: string } = {},
): MethodDecorator => {
  const required: readonly Permission[] = typeof permission === 'string' ? [permission] : permission;
  const lacks = required.join(' or ');
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, required),
    ApiExtension('x-required-permission', typeof permission === 'string' ? permission : [...required]),
    ApiResponse({
      status: 403,
      description: `Forbidden: the API key lacks ${lacks}${options.alsoForbidden ? `, or ${options.alsoForbidden}` : ''}`,
      schema: errorEnvelopeSchema,
    }),
  );
};
