import { ArrayNotEmpty, IsArray, ValidateBy } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { knownGrants } from './principal';
import { MAX_RELAYER_SCOPE_ENTRIES, RELAYER_SCOPE_ENTRY, RELAYER_SCOPE_RULE } from './relayer-scope';

/**
 * The rules of what a principal is granted, for every body that grants it: an API key's and a role's
 * (docs/reference/keys-and-audit.md).
 */

/** Read when a body is checked: extensions declare their permissions when the application is built. */
export const permissionsRule = (): string =>
  `permissions must be a non-empty array of: ${knownGrants().join(', ')}`;

/** Each element one of knownGrants() (the service's permissions, extensions' permissions, `*`). */
function IsGrant(): PropertyDecorator {
  return ValidateBy(
    { name: 'isGrant', validator: { validate: (value: unknown) => knownGrants().includes(value as string) } },
    { each: true, message: permissionsRule },
  );
}

/** A non-empty list of knownGrants(), named `permissions` (applied in the order decorators stacked above a property are). */
export const IsGrants = (): PropertyDecorator =>
  applyDecorators(
    IsGrant(),
    ArrayNotEmpty({ message: permissionsRule }),
    IsArray({ message: permissionsRule }),
  );

export const RELAYER_IDS_RULE = `relayer_ids must be a non-empty array of at most ${MAX_RELAYER_SCOPE_ENTRIES} relayer ids or prefixes ending in '*'`;

/** docs/reference/keys-and-audit.md#3-relayer-scope: the list, then each entry named by its index. */
export function IsRelayerScope(): PropertyDecorator {
  const badEntries = (value: unknown[]): string[] =>
    value.flatMap((entry, i) =>
      typeof entry === 'string' && RELAYER_SCOPE_ENTRY.test(entry) ? [] : [`relayer_ids[${i}]`],
    );
  return ValidateBy(
    {
      name: 'isRelayerScope',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length > 0 &&
          value.length <= MAX_RELAYER_SCOPE_ENTRIES &&
          badEntries(value).length === 0,
      },
    },
    {
      message: ({ value }) =>
        Array.isArray(value) && value.length > 0 && value.length <= MAX_RELAYER_SCOPE_ENTRIES
          ? `${badEntries(value).join(', ')} ${RELAYER_SCOPE_RULE}`
          : RELAYER_IDS_RULE,
    },
  );
}
