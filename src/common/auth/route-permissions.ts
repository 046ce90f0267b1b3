import type { INestApplication } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { knownGrants } from './principal';
import { REQUIRED_PERMISSION } from './require-permission.decorator';

/** A route requires a permission that no resource declared: no API key could ever be given it. */
export class UndeclaredPermissionError extends Error {
  constructor(route: string, permission: string) {
    super(
      `${route} requires '${permission}', which nothing declares: declare it with declareResource ` +
        "or createApp's permissions (docs/extending.md#permissions)",
    );
    this.name = 'UndeclaredPermissionError';
  }
}

/**
 * At start, every permission a route requires is one an API key may be given: the service's, or one
 * a module declared (docs/reference/extension-events.md#16-permissions-of-added-modules).
 */
export function assertRoutePermissionsDeclared(app: INestApplication): void {
  const known = new Set(knownGrants());
  const scanner = new MetadataScanner();
  for (const wrapper of app.get(DiscoveryService, { strict: false }).getControllers()) {
    const instance = wrapper.instance as object | undefined;
    if (!instance) continue;
    const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
    for (const method of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[method] as object;
      const required = Reflect.getMetadata(REQUIRED_PERMISSION, handler) as readonly string[] | undefined;
      // An empty list (AnyAuthenticatedKey: any valid key) names nothing to declare.
      const missing = required?.find((permission) => !known.has(permission));
      if (missing) throw new UndeclaredPermissionError(`${wrapper.name}.${method}`, missing);
    }
  }
}
