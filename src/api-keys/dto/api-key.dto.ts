import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsOptional, ValidateBy } from 'class-validator';
import { PERMISSIONS, type Grant } from '../../common/auth/principal';
import { IsRfc3339DateTime } from '../../common/validation/rfc3339';
import {
  IsName,
  IsOverlapSeconds,
  MAX_NAME_LENGTH,
  MAX_OVERLAP_SECONDS,
} from '../../common/validation/field-rules';
import { IsGrants, IsRelayerScope } from '../../common/auth/grant-rules';
import { MAX_RELAYER_SCOPE_ENTRIES } from '../../common/auth/relayer-scope';

export const EXPIRES_RULE = 'expires_at must be an RFC 3339 date and time in the future';
/** docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from; each element is ApiKeyCreateRules'. */
export const MAX_ALLOWED_CIDRS = 100;
const ALLOWED_CIDRS_RULE = `allowed_cidrs must be null or an array of 1 to ${MAX_ALLOWED_CIDRS} IPv4 or IPv6 CIDRs`;

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

export class CreateApiKeyDto {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH, example: 'grafana dashboards' })
  @IsName()
  name: string;

  @ApiProperty({
    type: [String],
    enum: [...PERMISSIONS, '*'],
    example: ['relayers:read', 'metrics:read'],
    description: 'Extensions add their own permissions to this list (docs/extending.md#permissions)',
  })
  @IsGrants()
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
  // allowed_cidrs: where the key may be used from (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from)
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: MAX_ALLOWED_CIDRS,
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description:
      'IPv4/IPv6 CIDRs (or single addresses) the key may be used from; from elsewhere it is refused as an ' +
      'unknown key (401). The client address is the socket’s, or the one TRUST_PROXY designates. Absent or null: anywhere',
  })
  @IsOptional()
  @IsArray({ message: ALLOWED_CIDRS_RULE })
  @ArrayNotEmpty({ message: ALLOWED_CIDRS_RULE })
  @ArrayMaxSize(MAX_ALLOWED_CIDRS, { message: ALLOWED_CIDRS_RULE })
  allowed_cidrs?: string[] | null;
}

/** POST /api/v1/api-keys/{id}/rotate (docs/reference/keys-and-audit.md#42-rotation). */
export class RotateApiKeyDto {
  @ApiPropertyOptional({
    // Explicit: `number | null` reaches the document as an object otherwise.
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    default: 0,
    description: 'How long the replaced secret keeps working; absent or 0: it stops at once',
  })
  @IsOptional()
  @IsOverlapSeconds()
  overlap_seconds?: number | null;
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

  // docs/reference/keys-and-audit.md#110-a-keys-children: who may rotate and revoke it (#44).
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'The id of the key that created it; null when the administrator (API_KEY) did. A key may rotate and ' +
      'revoke only itself and the keys it created, directly or through keys it created',
  })
  created_by_key_id: string | null;

  // Relayer scope (docs/reference/keys-and-audit.md#3-relayer-scope).
  @ApiPropertyOptional({
    type: [String],
    description: 'The relayers the key may see; present only for a key limited to some relayers',
  })
  relayer_ids?: string[];
  // allowed_cidrs: shown only for a key bound to addresses (docs/reference/keys-and-audit.md#41-where-a-key-may-be-used-from)
  @ApiPropertyOptional({ type: [String], description: 'Present only for a key bound to addresses' })
  allowed_cidrs?: string[];
}

/** The create and rotate answers: the only times a key is shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    example: 'rk_…',
    description: '`rk_` and 43 base64url characters; shown in this answer only',
  })
  key: string;
}

/** GET /api/v1/api-keys/self: the caller, never its secret (docs/reference/keys-and-audit.md#111-who-am-i). */
export class CallerResponse {
  @ApiProperty({
    enum: ['admin', 'api_key', 'user'],
    description: '`admin` for the API_KEY, `user` for a person signed in with a session',
  })
  type: 'admin' | 'api_key' | 'user';

  @ApiProperty({ example: 'admin', description: '`admin` for the API_KEY, else the key id' })
  id: string;

  @ApiProperty({ example: 'API_KEY' })
  name: string;

  @ApiProperty({ type: [String], example: ['relayers:read'], description: '`["*"]` for every permission' })
  permissions: Grant[];

  @ApiPropertyOptional({
    type: [String],
    description: 'The relayers the key may see; present only for a key limited to some relayers',
  })
  relayer_ids?: string[];

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description:
      'When the secret used for this request stops working: the key’s expiry, or the end of a rotation’s overlap; null: never',
  })
  expires_at: string | null;
}
