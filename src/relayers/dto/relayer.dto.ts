import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NETWORK_TYPES, type NetworkType } from '../../catalogue';
import { PageQueryDto } from '../../common/http/page.dto';
import { NotificationSummaryResponse } from '../../notifications';
import { IsName, IsOptionalNewId, IsResourceId, MAX_NAME_LENGTH } from '../../common/validation/field-rules';
import { RpcConfigDto, RpcConfigResponse } from '../../common/validation/rpc-config.dto';
import { MAX_RPC_URLS } from '../../common/validation/rpc-url-list';
import { policySchema } from '../policies/policy-validation';

const BOOLEAN_RULE = '$property must be true or false';
const MAX_NETWORK_LENGTH = 100;
const NETWORK_TYPE_RULE = `network_type must be one of: ${NETWORK_TYPES.join(', ')}`;
const RPC_LIST_RULE = `custom_rpc_urls must be an array of at most ${MAX_RPC_URLS} {url, weight} objects`;

const IsRpcUrlList = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsArray({ message: RPC_LIST_RULE }),
    ArrayMaxSize(MAX_RPC_URLS, { message: RPC_LIST_RULE }),
    IsObject({ each: true, message: RPC_LIST_RULE }),
    ValidateNested({ each: true }),
    Type(() => RpcConfigDto),
  );

const IsOptionalPolicies = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      nullable: true,
      description:
        "By the relayer's network_type: EvmPolicy, SolanaPolicy or StellarPolicy. In a PATCH, a JSON merge patch over the stored policies.",
      oneOf: NETWORK_TYPES.map((type) => ({
        title: `${type[0].toUpperCase()}${type.slice(1)}Policy`,
        ...policySchema(type),
      })),
    }),
    IsOptional(),
    IsObject({ message: 'policies must be an object' }),
  );

export class CreateRelayerDto {
  @IsOptionalNewId()
  id?: string | null;

  @ApiProperty({ maxLength: MAX_NAME_LENGTH })
  @IsName()
  name: string;

  @ApiProperty({ example: 'sepolia', description: 'A network of the catalogue for network_type' })
  @IsString({ message: 'network must be a non-empty string' })
  @IsNotEmpty({ message: 'network must be a non-empty string' })
  @MaxLength(MAX_NETWORK_LENGTH, { message: `network must be at most ${MAX_NETWORK_LENGTH} characters` })
  network: string;

  @ApiProperty({ enum: NETWORK_TYPES })
  @IsIn(NETWORK_TYPES, { message: NETWORK_TYPE_RULE })
  network_type: NetworkType;

  @ApiProperty()
  @IsBoolean({ message: BOOLEAN_RULE })
  paused: boolean;

  @ApiProperty({ description: 'A signer of the catalogue' })
  @IsResourceId()
  signer_id: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsResourceId()
  notification_id?: string | null;

  @ApiPropertyOptional({ type: [RpcConfigDto], maxItems: MAX_RPC_URLS, nullable: true })
  @IsRpcUrlList()
  custom_rpc_urls?: RpcConfigDto[] | null;

  @IsOptionalPolicies()
  policies?: Record<string, unknown> | null;
}

/** A JSON merge patch (RFC 7396); null for name or paused is refused. */
export class UpdateRelayerDto extends PickType(CreateRelayerDto, [
  'notification_id',
  'custom_rpc_urls',
  'policies',
] as const) {
  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH })
  @ValidateIf((dto: UpdateRelayerDto) => dto.name !== undefined)
  @IsName()
  name?: string;

  @ApiPropertyOptional()
  @ValidateIf((dto: UpdateRelayerDto) => dto.paused !== undefined)
  @IsBoolean({ message: BOOLEAN_RULE })
  paused?: boolean;
}

export class DisabledReasonResponse {
  @ApiProperty({ example: 'NonceSyncFailed' })
  type: string;

  @ApiProperty()
  details: string;
}

export class RelayerResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  network: string;

  @ApiProperty({ enum: NETWORK_TYPES })
  network_type: NetworkType;

  @ApiProperty({ description: "The signer's address on this network type" })
  address: string;

  @ApiProperty()
  signer_id: string;

  @ApiProperty({ nullable: true, type: String })
  notification_id: string | null;

  @ApiProperty()
  paused: boolean;

  @ApiProperty()
  system_disabled: boolean;

  @ApiProperty({ nullable: true, type: DisabledReasonResponse })
  disabled_reason: DisabledReasonResponse | null;

  @ApiProperty({ nullable: true, type: [RpcConfigResponse] })
  custom_rpc_urls: RpcConfigResponse[] | null;

  @IsOptionalPolicies()
  policies: Record<string, unknown> | null;

  @ApiProperty()
  created_at: string;

  @ApiProperty()
  updated_at: string;
}

/** GET /api/v1/relayers/summary (docs/reference/relayers.md#34-the-summary): the relayers the key may see, counted. */
export class RelayerSummaryResponse {
  @ApiProperty({ description: 'Every relayer the key may see' })
  total: number;

  @ApiProperty({ description: 'Neither paused nor disabled by the system (state=enabled)' })
  enabled: number;

  @ApiProperty({ description: 'Paused, disabled by the system or not (paused=true)' })
  paused: number;

  @ApiProperty({ description: 'Disabled by the system (state=disabled)' })
  disabled: number;

  @ApiProperty({ description: 'Those whose status says low_balance: true' })
  low_balance: number;

  @ApiProperty({ description: 'Never checked: their status says checked_at: null' })
  unchecked: number;

  @ApiPropertyOptional({
    type: NotificationSummaryResponse,
    description:
      'With include=notifications (and notifications:read): what GET /api/v1/notifications/summary answers',
  })
  notifications?: NotificationSummaryResponse;
}

/** What the summary may carry besides the relayers' counts (docs/reference/relayers.md#34-the-summary). */
export const RELAYER_SUMMARY_INCLUDES = ['notifications'] as const;
export type RelayerSummaryInclude = (typeof RELAYER_SUMMARY_INCLUDES)[number];

/**
 * The states a list may be filtered by and the summary counts: the flags `paused` and `system_disabled`
 * as the console names them, a low balance as the status says it, and never checked.
 */
export const RELAYER_STATES = ['enabled', 'paused', 'disabled', 'low_balance', 'unchecked'] as const;
export type RelayerState = (typeof RELAYER_STATES)[number];
const STATE_RULE = `state must be one of: ${RELAYER_STATES.join(', ')}`;
const NETWORK_FILTER_RULE = `network must be a string of 1 to ${MAX_NETWORK_LENGTH} characters`;
/** The `paused` flag alone, as query text: no implicit conversion (a bare `"false"` would be true). */
export const PAUSED_FILTERS = ['true', 'false'] as const;
const PAUSED_RULE = `paused must be one of: ${PAUSED_FILTERS.join(', ')}`;

/** The most characters of a search (`q`): a name's. */
export const MAX_SEARCH_LENGTH = MAX_NAME_LENGTH;
const SEARCH_RULE = `q must be a string of 1 to ${MAX_SEARCH_LENGTH} characters`;
/** SQLite ends a LIKE pattern at a NUL: no control character is a search (docs/reference/relayers.md#33-filtering-the-list). */
const withoutControlCharacters = (value: unknown): boolean =>
  typeof value === 'string' && ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const SEARCH_CONTROL_RULE = 'q must not contain control characters (U+0000 to U+001F, U+007F)';
/** What a list may be ordered by (docs/reference/relayers.md#35-ordering-the-list); `-` before one: descending. */
export const RELAYER_SORT_KEYS = ['id', 'name', 'created_at', 'balance', 'checked_at'] as const;
export type RelayerSortKey = (typeof RELAYER_SORT_KEYS)[number];
export type RelayerSort = RelayerSortKey | `-${RelayerSortKey}`;
export const RELAYER_SORTS: readonly RelayerSort[] = RELAYER_SORT_KEYS.flatMap((key) => [
  key,
  `-${key}` as const,
]);
const SORT_RULE = `sort must be one of: ${RELAYER_SORTS.join(', ')}`;
/** What an item of the list may carry besides the relayer (docs/reference/relayers.md#36-the-status-of-each-item). */
export const RELAYER_INCLUDES = ['status'] as const;
const INCLUDE_RULE = `include must be one of: ${RELAYER_INCLUDES.join(', ')}`;

/**
 * `page`, `per_page`, the filters (docs/reference/relayers.md#33-filtering-the-list), the search, the
 * order and what each item includes of GET /api/v1/relayers.
 */
export class RelayerListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: NETWORK_TYPES })
  @IsOptional()
  @IsIn(NETWORK_TYPES, { message: NETWORK_TYPE_RULE })
  network_type?: NetworkType;

  @ApiPropertyOptional({
    example: 'sepolia',
    maxLength: MAX_NETWORK_LENGTH,
    description: 'A network name, matched exactly (case included)',
  })
  @IsOptional()
  @IsString({ message: NETWORK_FILTER_RULE })
  @IsNotEmpty({ message: NETWORK_FILTER_RULE })
  @MaxLength(MAX_NETWORK_LENGTH, { message: NETWORK_FILTER_RULE })
  network?: string;

  @ApiPropertyOptional({
    enum: RELAYER_STATES,
    description:
      'enabled: neither paused nor disabled by the system; paused: paused, not disabled by the system; ' +
      'disabled: disabled by the system (system_disabled), paused or not; low_balance: its status says ' +
      'low_balance: true; unchecked: never checked (its status says checked_at: null)',
  })
  @IsOptional()
  @IsIn(RELAYER_STATES, { message: STATE_RULE })
  state?: RelayerState;

  @ApiPropertyOptional({
    enum: PAUSED_FILTERS,
    description: 'true: paused, disabled by the system or not; false: not paused',
  })
  @IsOptional()
  @IsIn(PAUSED_FILTERS, { message: PAUSED_RULE })
  paused?: (typeof PAUSED_FILTERS)[number];

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_SEARCH_LENGTH,
    example: 'payments',
    description:
      'Relayers whose name contains it, or whose id or address starts with it, case ignored; ' +
      '%, _ and \\ are matched as themselves; control characters (U+0000 to U+001F, U+007F) are refused',
  })
  @IsOptional()
  // Listed first, checked last (stopAtFirstError): a value that is no string of 1 to 255 characters is told that.
  @ValidateBy(
    { name: 'withoutControlCharacters', validator: { validate: withoutControlCharacters } },
    {
      message: SEARCH_CONTROL_RULE,
    },
  )
  @IsString({ message: SEARCH_RULE })
  @IsNotEmpty({ message: SEARCH_RULE })
  @MaxLength(MAX_SEARCH_LENGTH, { message: SEARCH_RULE })
  q?: string;

  @ApiPropertyOptional({
    enum: RELAYER_SORTS,
    description:
      'The order of the list, ties by id; - before a field: descending. balance (numeric, in base units ' +
      'whatever the network) and checked_at come from the last check: relayers without one last, either way. ' +
      'Absent: creation time, then id',
  })
  @IsOptional()
  @IsIn(RELAYER_SORTS, { message: SORT_RULE })
  sort?: RelayerSort;

  @ApiPropertyOptional({
    enum: RELAYER_INCLUDES,
    description:
      'status: each item also has status and balance_alert, as GET /api/v1/relayers/{relayer_id}/status and ' +
      '/balance-alert answer them',
  })
  @IsOptional()
  @IsIn(RELAYER_INCLUDES, { message: INCLUDE_RULE })
  include?: (typeof RELAYER_INCLUDES)[number];
}

/**
 * An item of GET /api/v1/relayers: the relayer, and with `include=status` its status and balance alert
 * (docs/reference/relayers.md#36-the-status-of-each-item). Those are the relayer health's and the balance
 * alerts' answers, whose features import this one: the document refers to their schemas by name, and
 * the list passes them on as those features make them (RelayerStatusSource).
 */
export class RelayerListItemResponse extends RelayerResponse {
  @ApiPropertyOptional({
    allOf: [{ $ref: getSchemaPath('RelayerStatusResponse') }],
    description: 'With include=status: what GET /api/v1/relayers/{relayer_id}/status answers',
  })
  status?: object;

  @ApiPropertyOptional({
    allOf: [{ $ref: getSchemaPath('BalanceAlertResponse') }],
    description: 'With include=status: what GET /api/v1/relayers/{relayer_id}/balance-alert answers',
  })
  balance_alert?: object;
}
