import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, plainToInstance } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsObject, ValidateNested } from 'class-validator';
import { RpcConfigDto, RpcConfigResponse } from '../../common/validation/rpc-config.dto';
import { MAX_RPC_URLS } from '../../common/validation/rpc-url-list';
import { NETWORK_TYPES, type NetworkType } from '../../catalogue';

const RPC_LIST_RULE = `rpc_urls must be an array of 1 to ${MAX_RPC_URLS} URLs or {url, weight} objects`;

/** A URL string is `{url}` (weight 100), as the SDK's `RpcUrlEntry` allows either. */
function toRpcConfigs(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (typeof item === 'string') return plainToInstance(RpcConfigDto, { url: item });
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      return plainToInstance(RpcConfigDto, item);
    }
    return item;
  });
}

export class UpdateNetworkDto {
  @ApiProperty({
    description: `1 to ${MAX_RPC_URLS} entries, each a URL or {url, weight}; a masked URL sent back unchanged keeps the stored one`,
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { $ref: getSchemaPath(RpcConfigDto) }] },
  })
  @IsDefined({ message: 'rpc_urls is required' })
  @IsArray({ message: RPC_LIST_RULE })
  @ArrayMinSize(1, { message: RPC_LIST_RULE })
  @ArrayMaxSize(MAX_RPC_URLS, { message: RPC_LIST_RULE })
  @IsObject({ each: true, message: RPC_LIST_RULE })
  @ValidateNested({ each: true })
  @Transform(({ obj }: { obj: Record<string, unknown> }) => toRpcConfigs(obj.rpc_urls))
  rpc_urls: RpcConfigDto[];
}

/** The SDK's `NetworkResponse`. */
export class NetworkResponse {
  @ApiProperty({ example: 'evm:sepolia', description: '`<network_type>:<name>` in lower case' })
  id: string;

  @ApiProperty({ example: 'sepolia' })
  name: string;

  @ApiProperty({ enum: NETWORK_TYPES })
  network_type: NetworkType;

  @ApiProperty({ type: [RpcConfigResponse] })
  rpc_urls: RpcConfigResponse[];

  @ApiProperty()
  is_testnet: boolean;

  @ApiPropertyOptional({ description: 'EVM networks' })
  chain_id?: number;

  @ApiPropertyOptional({ description: 'Stellar networks' })
  passphrase?: string;

  @ApiPropertyOptional()
  symbol?: string;

  @ApiPropertyOptional({ type: [String] })
  explorer_urls?: string[];

  @ApiPropertyOptional()
  average_blocktime_ms?: number;

  @ApiPropertyOptional()
  required_confirmations?: number;

  @ApiPropertyOptional({ type: [String] })
  features?: string[];

  @ApiPropertyOptional({ type: [String] })
  tags?: string[];

  @ApiPropertyOptional({ description: 'Stellar networks, as the configuration file gives it' })
  horizon_url?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'EVM networks, as given' })
  gas_price_cache?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "EVM networks: the reference system's pending status_check block, as the configuration file gives it",
  })
  status_check?: Record<string, unknown>;
}
