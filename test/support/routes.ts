import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { API_PREFIX, UNPREFIXED_ROUTES } from '../../src/bootstrap';
import { IS_PUBLIC } from '../../src/common/auth/public.decorator';
import { REQUIRED_PERMISSION } from '../../src/common/auth/require-permission.decorator';
import { LIST_ROUTE } from '../../src/common/http/route.decorator';
import type { TestApp } from './test-app';

/** One route of the running application, as its controller declares it. */
export interface Route {
  /** `GET`, `POST`, ... */
  readonly method: string;
  /** As the OpenAPI document writes it: `/api/v1/relayers/{id}`. */
  readonly path: string;
  readonly public: boolean;
  /** `@RequirePermission`'s list (empty: any key); undefined: the administrator's alone. */
  readonly required: readonly string[] | undefined;
  /** Declared `list: true` in its `@Route`: a paged list, tagged by its body (docs/reference/pagination.md). */
  readonly list: boolean;
}

/** `GET /api/v1/relayers/{id}`: how a route is named in docs/security.md and in test titles. */
export const routeName = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

/**
 * Every route of the application's router (every controller of every module), with its declared
 * permission: the one list the route walk, the route inventory and docs/security.md's table check.
 */
export function appRoutes(app: TestApp): Route[] {
  const reflector = app.app.get(Reflector);
  const routes: Route[] = [];
  for (const module of app.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as object;
      const prototype = (controller as { prototype: Record<string, () => unknown> }).prototype;
      const base = String(reflector.get<string>(PATH_METADATA, controller as never) ?? '');
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const own = reflector.get<string | undefined>(PATH_METADATA, handler);
        if (own === undefined) continue;
        const route = [base, own]
          .flatMap((p) => p.split('/'))
          .filter(Boolean)
          .join('/');
        const prefixed = UNPREFIXED_ROUTES.includes(route) ? route : `${API_PREFIX}/${route}`;
        routes.push({
          method: RequestMethod[reflector.get<RequestMethod>(METHOD_METADATA, handler)],
          path: `/${prefixed}`.replace(/\/:(\w+)/g, '/{$1}').replace(/\/$/, ''),
          public: reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller as never]) ?? false,
          required: reflector.get<readonly string[] | undefined>(REQUIRED_PERMISSION, handler),
          list: reflector.get<boolean | undefined>(LIST_ROUTE, handler) === true,
        });
      }
    }
  }
  return routes.sort((a, b) => routeName(a).localeCompare(routeName(b)));
}

export type OpenApiPaths = Record<string, Record<string, { 'x-required-permission'?: string | string[] }>>;

/** The served OpenAPI document (public, 200 expected), read as the shape the caller states. */
export async function openApiDocument<T extends object>(app: TestApp): Promise<T> {
  return (await app.get('/api/docs-json', false).expect(200)).body as T;
}

/** The served OpenAPI document's `paths`. */
export async function openApiPaths(app: TestApp): Promise<OpenApiPaths> {
  return (await openApiDocument<{ paths: OpenApiPaths }>(app)).paths;
}

/**
 * Each OpenAPI route's `x-required-permission` as docs/security.md writes it: `public` when it has
 * none, `a + b` when it needs several, `none` for any key.
 */
export function documentedPermissions(paths: OpenApiPaths): Map<string, string> {
  const permissions = new Map<string, string>();
  for (const [route, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const required = op['x-required-permission'];
      permissions.set(
        `${method.toUpperCase()} ${route}`,
        required === undefined ? 'public' : Array.isArray(required) ? required.join(' + ') : String(required),
      );
    }
  }
  return permissions;
}
