import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString } from 'class-validator';
import { IsOptionalNewId } from '../../common/validation/field-rules';
import type { NetworkType } from '../../catalogue';
import {
  HOSTED_SIGNER_TYPES,
  type HostedSignerType,
  type ShownConfig,
} from '../key-services/hosted-signer-config';

export class CreateSignerDto {
  @IsOptionalNewId()
  id?: string | null;

  @ApiProperty({
    enum: ['plain', ...HOSTED_SIGNER_TYPES],
    description:
      'plain: a key given here; the others: a key held by a key service (docs/reference/kms-signers.md)',
  })
  @IsString({ message: "type must be 'plain'" })
  type: string;

  @ApiProperty({
    type: Object,
    description: "plain: {key}; a hosted type: the reference system's config fields of that type",
    example: { key: '0x…' },
  })
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
    enum: ['local', ...HOSTED_SIGNER_TYPES],
    description:
      "Every key-holding signer (the file's plain and local keystore ones, and those created here) is `local`, as the reference system answers; a hosted one has its type",
  })
  type: 'local' | HostedSignerType;

  @ApiProperty({
    type: Object,
    description: "{} for a key-holding signer; a hosted one's non-secret config fields (never a credential)",
    example: {},
  })
  config: ShownConfig;

  @ApiProperty({
    type: SignerAddressesResponse,
    description: 'The address per network type; never key material',
  })
  addresses: Partial<Record<NetworkType, string>>;
}
