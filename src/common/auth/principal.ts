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
export type Grant = Permission | '*';

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

export function grants(principal: Principal, permission: Permission): boolean {
  return principal.permissions.includes('*') || principal.permissions.includes(permission);
}

/** docs/reference/hardening.md: keys grant only what they hold; `*` only a principal holding `*`. */
export function holdsAll(principal: Principal, asked: readonly Grant[]): boolean {
  if (principal.permissions.includes('*')) return true;
  return asked.every((grant) => grant !== '*' && principal.permissions.includes(grant));
}
