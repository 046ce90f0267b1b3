import { ApiProperty } from '@nestjs/swagger';
import { IsThreshold, type ThresholdValue } from '../threshold';

const THRESHOLD = {
  oneOf: [
    { type: 'string', pattern: '^\\d+$' },
    { type: 'integer', minimum: 0 },
  ],
  description:
    'In the base unit (wei, lamport, stroop): a string of decimal digits or a JSON integer, read exactly at any size',
};

export class NetworkBalanceAlertDto {
  @ApiProperty(THRESHOLD)
  @IsThreshold(false)
  threshold: ThresholdValue;
}

export class RelayerBalanceAlertDto {
  @ApiProperty({
    ...THRESHOLD,
    nullable: true,
    description: `${THRESHOLD.description}; null: no alert for this relayer`,
  })
  @IsThreshold(true)
  threshold: ThresholdValue | null;
}

/** A threshold as the checks use it: validated, a decimal string (null: no alert). */
export interface BalanceAlertInput {
  readonly threshold: string | null;
}

export class BalanceAlertResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '100000000000000000',
    description: 'The threshold that applies, in the base unit, as a decimal string; null: no alert',
  })
  threshold: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['relayer', 'network'],
    description: "Where it comes from: the relayer's own rule, its network's default, or null (no rule)",
  })
  source: 'relayer' | 'network' | null;
}
