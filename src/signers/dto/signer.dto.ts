import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString } from 'class-validator';
import { IsOptionalNewId } from '../../common/validation/field-rules';
import type { NetworkType } from '../../catalogue/catalogue.service';

export class PlainSignerConfigDto {
  @ApiProperty({
    description:
      '32 bytes as 64 hex characters (0x allowed): a valid secp256k1 private key. Never shown again.',
    example: '0x…',
  })
  key: string;
}

export class CreateSignerDto {
  @IsOptionalNewId()
  id?: string | null;

  @ApiProperty({ enum: ['plain'], description: `Other types of the reference system are refused (400)` })
  @IsString({ message: "type must be 'plain'" })
  type: string;

  @ApiProperty({ type: PlainSignerConfigDto })
  @IsObject({ message: 'config must be an object: {"key": "<64 hex characters>"}' })
  config: Record<string, unknown>;
}

export class SignerAddressesResponse {
  @ApiPropertyOptional({ example: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf' })
  evm?: string;

  @ApiPropertyOptional()
  solana?: string;

  @ApiPropertyOptional()
  stellar?: string;
}

/** The SDK's `SignerResponse`, with the addresses the key has on each network type. */
export class SignerResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({
    enum: ['local'],
    description:
      "Every key-holding signer (the file's plain and local keystore ones, and those created here) is `local`, as the reference system answers",
  })
  type: 'local';

  @ApiProperty({
    type: Object,
    description: "Always {}: nothing of a signer's configuration is shown",
    example: {},
  })
  config: Record<string, never>;

  @ApiProperty({
    type: SignerAddressesResponse,
    description: 'The address per network type; never key material',
  })
  addresses: Partial<Record<NetworkType, string>>;
}
