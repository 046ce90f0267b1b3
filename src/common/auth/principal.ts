import { addPermissions, declaredPermissions } from './resources';

/**
 * The service's permissions (docs/reference/keys-and-audit.md), in the order answers list them; `*`
 * grants all of them. Each feature declares its own with declareResource (resources.ts): this list
 * is the public type and the order, and a test checks that the features declare exactly these.
 */
export const PERMISSIONS = [
  'relayers:read',
  'relayers:write',
  'notifications:read',
  'notifications:write',
  'signers:read',
  'signers:write',
  'networks:read',
  'networks:write',
  'api_keys:manage',
  'audit:read',
  'metrics:read',
  'config:read',
  'roles:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
/** A permission an extension declares (docs/extending.md#permissions): `resource:action`, lower case. */
export type ExtensionPermission = `${string}:${string}`;
export type Grant = Permission | ExtensionPermission | '*';

/** For the process: every application built in it accepts them (docs/extending.md#permissions). */
export function declarePermissions(permissions: readonly string[]): void {
  addPermissions(permissions);
}

/** The service's permissions in their order, then the others in the order they were declared, then `*`. */
export function knownGrants(): readonly string[] {
  const builtIn: readonly string[] = PERMISSIONS;
  return [...PERMISSIONS, ...declaredPermissions().filter((p) => !builtIn.includes(p)), '*'];
}

export interface Principal {
  /** `user`: a person signed in through the identity provider (docs/access.md#signing-in-with-your-identity-provider). */
  readonly type: 'admin' | 'api_key' | 'user';
  readonly id: string;
  readonly name: string;
  readonly permissions: readonly Grant[];
  /** The relayers it may see (ids and `prefix*`); absent: every relayer (docs/reference/keys-and-audit.md). */
  readonly relayerIds?: readonly string[];
  /**
   * When the secret it authenticated with stops working: its key's expiry, or the end of a rotation's
   * overlap (docs/reference/keys-and-audit.md#43-expiry-you-can-see-coming); absent or null: never.
   */
  readonly secretExpiresAt?: Date | null;
  /**
   * It authenticated with the secret a rotation replaced, during the overlap: it only reads, the
   * bearer guard refusing its writes (docs/reference/keys-and-audit.md#42-rotation).
   */
  readonly replacedSecret?: boolean;
  /**
   * A person's session (type `user`): every request it makes that changes anything carries this CSRF
   * token in `X-CSRF-Token`, which the bearer guard checks.
   */
  readonly session?: { readonly id: string; readonly csrfToken: string; readonly roles: readonly string[] };
  /**
   * A person's roles, each what it grants where: a route is served with the union of the roles that
   * grant every permission it needs (forRoute), never with one role's permission over another's scope.
   */
  readonly grants?: readonly RoleGrant[];
}

/** What one role grants: its permissions over its relayers (absent: every relayer). */
export interface RoleGrant {
  readonly permissions: readonly Grant[];
  readonly relayerIds?: readonly string[];
}

/** The union of grants: every permission, over every relayer any of them covers (absent: one covers all). */
export function unionOf(grants: readonly RoleGrant[]): RoleGrant {
  const permissions = [...new Set(grants.flatMap((grant) => grant.permissions))];
  if (grants.some((grant) => grant.relayerIds === undefined)) return { permissions };
  return { permissions, relayerIds: [...new Set(grants.flatMap((grant) => grant.relayerIds ?? []))] };
}

/**
 * The principal a route needing `required` is served with (docs/access.md#roles-from-the-providers-groups-to-permissions):
 * a key's as it is; a person's narrowed to the roles that grant all of `required`, so that a role's
 * permission reaches only that role's relayers. A team's scoped write role and a company-wide read
 * role give write on the team's relayers and read on all, never write on all.
 */
export function forRoute(principal: Principal, required: readonly string[] | undefined): Principal {
  if (!principal.grants || !required || required.length === 0) return principal;
  const held = principal.grants.filter((grant) =>
    required.every(
      (permission) => grant.permissions.includes('*') || grant.permissions.includes(permission as Grant),
    ),
  );
  const { relayerIds, ...rest } = { ...principal, ...unionOf(held) };
  return relayerIds === undefined ? rest : { ...rest, relayerIds };
}

export const ADMIN: Principal = Object.freeze({
  type: 'admin',
  id: 'admin',
  name: 'API_KEY',
  permissions: Object.freeze(['*'] as const),
});

export function grants(principal: Principal, permission: Permission | ExtensionPermission): boolean {
  return principal.permissions.includes('*') || principal.permissions.includes(permission);
}

/** docs/reference/hardening.md: keys grant only what they hold; `*` only a principal holding `*`. */
export function holdsAll(principal: Principal, asked: readonly Grant[]): boolean {
  if (principal.permissions.includes('*')) return true;
  return asked.every((grant) => grant !== '*' && principal.permissions.includes(grant));
}
