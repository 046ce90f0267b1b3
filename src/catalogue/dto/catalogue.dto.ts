import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NETWORK_TYPES, SIGNER_TYPES, type NetworkType, type SignerType } from '../catalogue.types';

export class NetworkResponse {
  @ApiProperty({ enum: NETWORK_TYPES })
  type: NetworkType;

  @ApiProperty()
  network: string;

  @ApiPropertyOptional({ description: 'EVM networks' })
  chain_id?: number;

  @ApiPropertyOptional({ description: 'Stellar networks' })
  passphrase?: string;

  @ApiProperty()
  is_testnet: boolean;

  @ApiProperty({
    type: [String],
    description: 'Masked like relayer RPC URLs: no credentials, last segment and query values ***',
  })
  rpc_urls: string[];
}

export class SignerResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: SIGNER_TYPES })
  type: SignerType;

  @ApiProperty({
    description: 'The address per network type the key suits; never key material',
    example: { evm: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf' },
  })
  addresses: Partial<Record<NetworkType, string>>;
}
