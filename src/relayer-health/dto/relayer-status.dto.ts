import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NETWORK_TYPES, type NetworkType } from '../../catalogue';

/** The shape of the official SDK's getRelayerStatus (plus checked_at). */
export class RelayerStatusResponse {
  @ApiProperty({ enum: NETWORK_TYPES })
  network_type: NetworkType;

  @ApiProperty({
    description: 'Found by the last check, in the smallest unit, as a decimal string ("0" before the first)',
  })
  balance: string;

  @ApiProperty()
  paused: boolean;

  @ApiProperty()
  system_disabled: boolean;

  @ApiProperty({ description: 'Always 0: transactions belong to the relayer runtime, not this service' })
  pending_transactions_count: number;

  @ApiProperty({ nullable: true, type: String })
  last_confirmed_transaction_timestamp: string | null;

  @ApiPropertyOptional({ description: 'EVM: the pending nonce found by the last check (decimal string)' })
  nonce?: string;

  @ApiPropertyOptional({
    description: 'Stellar: the account sequence number found by the last check (decimal string)',
  })
  sequence_number?: string;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'When the last check ran (ISO 8601), null before the first',
  })
  checked_at: string | null;

  @ApiProperty({
    nullable: true,
    type: Boolean,
    description:
      'The balance below its alert threshold at the last check (true or false); null without a threshold or before the first check',
  })
  low_balance: boolean | null;
}

/** The shape of the official SDK's getRelayerBalance. */
export class BalanceResponse {
  @ApiProperty({ type: 'integer', description: 'Every digit (wei amounts exceed 2^53)' })
  balance: bigint;

  @ApiProperty({ enum: ['wei', 'lamport', 'stroop'] })
  unit: 'wei' | 'lamport' | 'stroop';
}
