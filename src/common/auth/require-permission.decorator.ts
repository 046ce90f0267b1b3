import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { errorEnvelopeSchema } from '../http/openapi';
import type { Permission } from './principal';

export const REQUIRED_PERMISSION = 'auth:requiredPermission';

/**
 * The permission a route needs (contract 14). Every route that is not @Public() names one: the
 * guard lets only the administrator through a route without it, and the route inventory test
 * fails on it. The OpenAPI document shows it as `x-required-permission` and documents the 403;
 * `alsoForbidden` names a further refusal of the route's own (the API-key subset rule).
 */
export const RequirePermission = (
  permission: Permission,
  options: { alsoForbidden?: string } = {},
): MethodDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiExtension('x-required-permission', permission),
    ApiResponse({
      status: 403,
      description: `Forbidden: the API key lacks ${permission}${options.alsoForbidden ? `, or ${options.alsoForbidden}` : ''}`,
      schema: errorEnvelopeSchema,
    }),
  );
