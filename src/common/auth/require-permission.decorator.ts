import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { errorEnvelopeSchema } from '../http/openapi.decorators';
import type { ExtensionPermission, Permission } from './principal';

export const REQUIRED_PERMISSION = 'auth:requiredPermission';
export const OWN_KEY_PARAMETER = 'auth:ownKeyParameter';

/** The service's permissions, or one a module declares (checked at start: route-permissions.ts). */
export type RequiredPermission = Permission | ExtensionPermission;

/** docs/reference/keys-and-audit.md; several when the route reaches more than one resource (all needed). */
export const RequirePermission = (
  permission: RequiredPermission | readonly [RequiredPermission, ...RequiredPermission[]],
  options: { alsoForbidden?: string } = {},
): MethodDecorator => {
  const required: readonly RequiredPermission[] = typeof permission === 'string' ? [permission] : permission;
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

/** What `x-required-permission` says of a route any authenticated caller may use. */
export const ANY_AUTHENTICATED = 'none';

/**
 * Any valid key may call the route, whatever its permissions (who am I:
 * docs/reference/keys-and-audit.md#111-who-am-i). The guard checks every one of no permissions, so
 * only authentication is asked; unlike a route without @RequirePermission, which is the administrator's.
 */
export const AnyAuthenticatedKey = (): MethodDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, []),
    ApiExtension('x-required-permission', ANY_AUTHENTICATED),
  );

/**
 * The API key that the path parameter names may call the route without its permission (a key rotating
 * itself: docs/reference/keys-and-audit.md#42-rotation); the service decides the rest.
 */
export const OrTheKeyItself = (parameter: string): MethodDecorator =>
  applyDecorators(
    SetMetadata(OWN_KEY_PARAMETER, parameter),
    ApiExtension('x-allowed-for-the-key-itself', true),
  );
