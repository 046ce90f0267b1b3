import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, ValidateIf } from 'class-validator';
import { IsGrants, IsRelayerScope } from '../../common/auth/grant-rules';
import { PERMISSIONS, type Grant } from '../../common/auth/principal';
import { MAX_RELAYER_SCOPE_ENTRIES } from '../../common/auth/relayer-scope';
import { IsListOf, IsResourceId, RESOURCE_ID_PATTERN } from '../../common/validation/field-rules';

export const MAX_ROLE_GROUPS = 100;
const MAX_GROUP_LENGTH = 255;
const GROUPS_RULE = `groups must be an array of 1 to ${MAX_ROLE_GROUPS} group names`;

/** Values of the identity provider's groups claim, matched exactly. */
const IsGroups = (): PropertyDecorator =>
  IsListOf({
    max: MAX_ROLE_GROUPS,
    rule: GROUPS_RULE,
    item: (value, at) =>
      typeof value === 'string' && value.length > 0 && value.length <= MAX_GROUP_LENGTH
        ? null
        : `${at} must be 1 to ${MAX_GROUP_LENGTH} characters`,
  });

const PERMISSIONS_DOC: ApiPropertyOptions = {
  type: [String],
  enum: [...PERMISSIONS, '*'],
  example: ['relayers:read', 'relayers:write'],
  description: 'As an API key’s; only what the caller holds (* only a caller holding *)',
};
const RELAYER_IDS_DOC: ApiPropertyOptions = {
  type: [String],
  nullable: true,
  maxItems: MAX_RELAYER_SCOPE_ENTRIES,
  example: ['team-a-*'],
  description:
    "The relayers (and signers and targets) its holders may see, as an API key's relayer_ids; absent or null: every relayer. Only within the caller's own.",
};
const GROUPS_DOC: ApiPropertyOptions = {
  type: [String],
  maxItems: MAX_ROLE_GROUPS,
  example: ['relayer-ops'],
  description:
    'Values of the ID token’s groups claim (AUTH_OIDC_GROUPS_CLAIM): a person in any of them holds the role',
};

/** POST /api/v1/roles (docs/access.md#roles-from-the-providers-groups-to-permissions). */
export class CreateRoleDto {
  @ApiProperty({ pattern: RESOURCE_ID_PATTERN.source, example: 'ops' })
  @IsResourceId()
  id: string;

  @ApiProperty(PERMISSIONS_DOC)
  @IsGrants()
  permissions: Grant[];

  @ApiPropertyOptional(RELAYER_IDS_DOC)
  @IsOptional()
  @IsRelayerScope()
  relayer_ids?: string[] | null;

  @ApiProperty(GROUPS_DOC)
  @IsGroups()
  groups: string[];
}

/** PATCH /api/v1/roles/{id}: what is given replaces what the role had; `relayer_ids: null` unscopes it. */
export class UpdateRoleDto {
  // Absent keeps what the role has; null is refused (a role holds at least one permission).
  @ApiPropertyOptional(PERMISSIONS_DOC)
  @ValidateIf((dto: UpdateRoleDto) => dto.permissions !== undefined)
  @IsGrants()
  permissions?: Grant[];

  @ApiPropertyOptional(RELAYER_IDS_DOC)
  @IsOptional()
  @IsRelayerScope()
  relayer_ids?: string[] | null;

  @ApiPropertyOptional(GROUPS_DOC)
  @ValidateIf((dto: UpdateRoleDto) => dto.groups !== undefined)
  @IsGroups()
  groups?: string[];
}

export class RoleResponse {
  @ApiProperty({ example: 'ops' })
  id: string;

  @ApiProperty({ type: [String] })
  permissions: Grant[];

  @ApiPropertyOptional({ type: [String], description: 'Present only for a role limited to some relayers' })
  relayer_ids?: string[];

  @ApiProperty({ type: [String] })
  groups: string[];
}
