import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export const BALANCE_HISTORY_WINDOWS = ['24h', '7d', '30d'] as const;
export type BalanceHistoryWindow = (typeof BALANCE_HISTORY_WINDOWS)[number];

/** GET /api/v1/relayers/{id}/balance-history (docs/reference/relayer-health.md#35-balance-history). */
export class BalanceHistoryQueryDto {
  @ApiPropertyOptional({ enum: BALANCE_HISTORY_WINDOWS, default: '7d' })
  @IsOptional()
  @IsIn(BALANCE_HISTORY_WINDOWS, { message: `window must be one of: ${BALANCE_HISTORY_WINDOWS.join(', ')}` })
  window: BalanceHistoryWindow = '7d';
}

export class BalanceSampleResponse {
  @ApiProperty({ format: 'date-time', description: 'When a health check read it (ISO 8601)' })
  at: string;

  @ApiProperty({ description: 'In the smallest unit, as a decimal string (as the status gives it)' })
  balance: string;
}

export class BalanceHistoryResponse {
  @ApiProperty({ enum: BALANCE_HISTORY_WINDOWS })
  window: BalanceHistoryWindow;

  @ApiProperty({
    type: [BalanceSampleResponse],
    description:
      'Oldest first: the balance each time a check found it changed within the window, after the last ' +
      'sample before the window (the balance the window starts with), when there is one',
  })
  samples: BalanceSampleResponse[];
}
