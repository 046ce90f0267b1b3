import { auditedTypes } from '../../src/audit/audit-change';
import { knownGrants, PERMISSIONS } from '../../src/common/auth/principal';

/** The service's own audited types, in the order the audit rule lists them (docs/reference/keys-and-audit.md). */
export const SERVICE_AUDITED_TYPES: readonly string[] = [
  'relayer',
  'notification',
  'signer',
  'network',
  'api_key',
];

/**
 * A list the process builds, checked: the service's own first, in their order; then what the modules of
 * the process declared, `extra` (what the calling test declared) among them, in the order they were
 * declared (a resource added to the app, docs/architecture.md#adding-a-resource, or another spec's
 * extension in the same group); then `last`.
 */
function servicesThenOthers(
  list: readonly string[],
  service: readonly string[],
  extra: readonly string[],
  last: readonly string[] = [],
): readonly string[] {
  const declared = list.slice(service.length, list.length - last.length);
  expect({
    service: list.slice(0, service.length),
    declared,
    last: list.slice(list.length - last.length),
  }).toEqual({
    service,
    declared: expect.arrayContaining([...extra]) as unknown,
    last,
  });
  return list;
}

/** The grants an API key may be given now (knownGrants): PERMISSIONS, the others declared, `extra`, then `*`. */
export const grantsWith = (...extra: string[]): readonly string[] =>
  servicesThenOthers(knownGrants(), PERMISSIONS, extra, ['*']);

/** The 400 of a key's `permissions` outside the grants (CreateApiKeyDto). */
export const permissionsRule = (...extra: string[]): string =>
  `permissions must be a non-empty array of: ${grantsWith(...extra).join(', ')}`;

/** The types GET /api/v1/audit lists now (auditedTypes): the service's, the others declared, then `extra`. */
export const auditedTypesWith = (...extra: string[]): readonly string[] =>
  servicesThenOthers(auditedTypes(), SERVICE_AUDITED_TYPES, extra);

/** The 400 of an unknown `resource_type` on GET /api/v1/audit. */
export const resourceTypeRule = (...extra: string[]): string =>
  `resource_type must be one of: ${auditedTypesWith(...extra).join(', ')}`;
