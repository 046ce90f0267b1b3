import { ApiProperty } from '@nestjs/swagger';
import { IsOptionalRpcWeight, IsUrlText } from './field-rules';

/** An RPC endpoint in a body, and as answered (masked); the list's rules are in rpc-url-list.ts. */
export class RpcConfigDto {
  @ApiProperty({ example: 'https://eth-mainnet.example.com/v2/KEY' })
  @IsUrlText()
  url: string;

  @IsOptionalRpcWeight()
  weight?: number | null;
}

export class RpcConfigResponse {
  @ApiProperty({ description: 'Masked: no credentials, last path segment and query values ***' })
  url: string;

  @ApiProperty()
  weight: number;
}
