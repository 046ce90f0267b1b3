/** The permissions of docs/reference/keys-and-audit.md; `*` grants all of them. */
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
] as const;
export type Permission = (typeof PERMISSIONS)[number];
/** A permission an extension declares (docs/extending.md#permissions): `resource:action`, lower case. */
export type ExtensionPermission = `${string}:${string}`;
export type Grant = Permission | ExtensionPermission | '*';

const EXTENSION_PERMISSION = /^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/;
const declared = new Set<ExtensionPermission>();

/** For the process: every application built in it accepts them. */
export function declarePermissions(permissions: readonly string[]): void {
  for (const permission of permissions) {
    if (!EXTENSION_PERMISSION.test(permission)) {
      throw new Error(`permission '${permission}' must be resource:action, lower case (a-z, 0-9, _)`);
    }
    if (!(PERMISSIONS as readonly string[]).includes(permission)) {
      declared.add(permission as ExtensionPermission);
    }
  }
}

export function knownGrants(): readonly string[] {
  return [...PERMISSIONS, ...declared, '*'];
}

export interface Principal {
  readonly type: 'admin' | 'api_key';
  readonly id: string;
  readonly name: string;
  readonly permissions: readonly Grant[];
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
