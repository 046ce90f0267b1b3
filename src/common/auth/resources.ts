/**
 * The resources of the application, each declared by the feature that owns it, the service's as an
 * extension's (docs/reference/extension-events.md#17-tables-and-resources-of-an-extension): the
 * permissions API keys may be given, and the types the audit trail lists.
 */
export interface ResourceDeclaration {
  /** Lower case (a-z, 0-9, _): the `resource` of `Tx.recordChange` and the audit's `resource_type`. */
  readonly name: string;
  /** Its permissions, `resource:action`, lower case: API keys may be given them. */
  readonly permissions?: readonly string[];
  /** Its changes are listed by GET /api/v1/audit?resource_type=<name>. */
  readonly audited?: boolean;
  /** What its audit records say was done (`<name>.<operation>`); create, update and delete unless told. */
  readonly operations?: readonly string[];
}

const NAME = /^[a-z][a-z0-9_]*$/;
const PERMISSION = /^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/;
/** audit_events.resource_type is varchar(16). */
const AUDITED_NAME_MAX = 16;

const permissions = new Set<string>();
const DEFAULT_OPERATIONS = ['create', 'update', 'delete'] as const;
const resources = new Map<
  string,
  { permissions: Set<string>; audited: boolean; operations: readonly string[] }
>();

/** Checks every permission before any is added: a refused declaration adds nothing. */
export function checkPermissions(list: readonly string[]): void {
  for (const permission of list) {
    if (!PERMISSION.test(permission)) {
      throw new Error(`permission '${permission}' must be resource:action, lower case (a-z, 0-9, _)`);
    }
  }
}

/** Permissions without a resource of their own (createApp's `permissions`). For the process. */
export function addPermissions(list: readonly string[]): void {
  checkPermissions(list);
  for (const permission of list) permissions.add(permission);
}

/**
 * For the process: every application built in it knows the resource. Declaring a name again adds to
 * what it had (a module file imported by several applications declares once per process anyway).
 */
export function declareResource(declaration: ResourceDeclaration): void {
  const { name } = declaration;
  if (!NAME.test(name)) throw new Error(`resource '${name}' must be lower case (a-z, 0-9, _)`);
  if (declaration.audited && name.length > AUDITED_NAME_MAX) {
    throw new Error(
      `resource '${name}' is audited: its name must be at most ${AUDITED_NAME_MAX} characters ` +
        '(the audit trail’s resource_type)',
    );
  }
  addPermissions(declaration.permissions ?? []);
  const resource = resources.get(name) ?? {
    permissions: new Set<string>(),
    audited: false,
    operations: declaration.operations ?? DEFAULT_OPERATIONS,
  };
  for (const permission of declaration.permissions ?? []) resource.permissions.add(permission);
  resource.audited ||= declaration.audited === true;
  resources.set(name, resource);
}

/** In the order they were declared. */
export function declaredPermissions(): readonly string[] {
  return [...permissions];
}

/** The audited resources, their permissions and operations, in the order they were declared. */
export function auditedResources(): ReadonlyArray<{
  name: string;
  permissions: readonly string[];
  operations: readonly string[];
}> {
  return [...resources]
    .filter(([, resource]) => resource.audited)
    .map(([name, resource]) => ({
      name,
      permissions: [...resource.permissions],
      operations: resource.operations,
    }));
}
