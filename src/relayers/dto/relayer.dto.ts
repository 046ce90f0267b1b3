import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
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
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { NETWORK_TYPES, type NetworkType } from '../../catalogue';
import { PageQueryDto } from '../../common/http/page.dto';
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

  @ApiPropertyOptional({ nullable: true })
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
}

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

/** `page`, `per_page` and the filters of GET /api/v1/relayers (docs/reference/relayers.md#33-filtering-the-list). */
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
}
