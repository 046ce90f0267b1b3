import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayNotEmpty,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { knownGrants, PERMISSIONS, type Grant } from '../../common/auth/principal';
import { IsRfc3339DateTime } from '../../common/validation/rfc3339';
import {
  MAX_RELAYER_SCOPE_ENTRIES,
  RELAYER_SCOPE_ENTRY,
  RELAYER_SCOPE_RULE,
} from '../../common/auth/relayer-scope';

const NAME_RULE = 'name must be 1 to 255 characters, not only whitespace';
export const EXPIRES_RULE = 'expires_at must be an RFC 3339 date and time in the future';
/** Read when a body is checked: extensions declare their permissions when the application is built. */
const permissionsRule = (): string => `permissions must be a non-empty array of: ${knownGrants().join(', ')}`;

/** Each element one of knownGrants() (the service's permissions, extensions' permissions, `*`). */
function IsGrant(): PropertyDecorator {
  return ValidateBy(
    { name: 'isGrant', validator: { validate: (value: unknown) => knownGrants().includes(value as string) } },
    { each: true, message: permissionsRule },
  );
}

/** A date still to come when the body is checked (a text that is no date is IsRfc3339DateTime's). */
function IsFuture(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isFuture',
      validator: { validate: (value: unknown) => !(value instanceof Date) || value.getTime() > Date.now() },
    },
    { message: EXPIRES_RULE },
  );
}

export const RELAYER_IDS_RULE = `relayer_ids must be a non-empty array of at most ${MAX_RELAYER_SCOPE_ENTRIES} relayer ids or prefixes ending in '*'`;

/** docs/reference/keys-and-audit.md#3-relayer-scope: the list, then each entry named by its index. */
function IsRelayerScope(): PropertyDecorator {
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

export class CreateApiKeyDto {
  @ApiProperty({ maxLength: 255, example: 'grafana dashboards' })
  @IsString({ message: NAME_RULE })
  @MaxLength(255, { message: NAME_RULE })
  @Matches(/\S/, { message: NAME_RULE })
  name: string;

  @ApiProperty({
    type: [String],
    enum: [...PERMISSIONS, '*'],
    example: ['relayers:read', 'metrics:read'],
    description: 'Extensions add their own permissions to this list (docs/extending.md#permissions)',
  })
  @IsArray({ message: permissionsRule })
  @ArrayNotEmpty({ message: permissionsRule })
  @IsGrant()
  permissions: Grant[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    example: '2030-01-01T00:00:00Z',
    description: 'RFC 3339 date and time (offset required), in the future; absent or null: never expires',
    nullable: true,
  })
  @IsOptional()
  @IsRfc3339DateTime(EXPIRES_RULE)
  @IsFuture()
  expires_at?: Date | null;

  // Relayer scope (docs/reference/keys-and-audit.md#3-relayer-scope).
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_RELAYER_SCOPE_ENTRIES,
    example: ['team-a-*', 'shared-1'],
    description:
      "The relayers the key may see: ids, and prefixes ending in '*'; absent or null: every relayer. Only within the caller's own.",
  })
  @IsOptional()
  @IsRelayerScope()
  relayer_ids?: string[] | null;
}

/** A managed key as listed: never the key itself. */
export class ApiKeyResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: [String] })
  permissions: Grant[];

  @ApiProperty()
  created_at: string;

  @ApiProperty({ nullable: true, type: String })
  expires_at: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Kept to within a few seconds' })
  last_used_at: string | null;

  @ApiProperty({ example: 'rk_AbCd', description: 'The first characters of the key, to recognise it' })
  key_prefix: string;

  // Relayer scope (docs/reference/keys-and-audit.md#3-relayer-scope).
  @ApiPropertyOptional({
    type: [String],
    description: 'The relayers the key may see; present only for a key limited to some relayers',
  })
  relayer_ids?: string[];
}

/** The create answer: the only time the key is shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    example: 'rk_…',
    description: '`rk_` and 43 base64url characters; shown in this answer only',
  })
  key: string;
}
