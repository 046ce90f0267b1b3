import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export const STATS_WINDOWS = ['1h', '24h', '7d'] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];

export class DeliveryStatsQueryDto {
  @ApiPropertyOptional({ enum: STATS_WINDOWS, default: '24h' })
  @IsOptional()
  @IsIn(STATS_WINDOWS, { message: `window must be one of: ${STATS_WINDOWS.join(', ')}` })
  window: StatsWindow = '24h';
}

export class DeliveryLatencyResponse {
  @ApiProperty({ nullable: true, type: Number, description: 'Median (nearest rank), null when none' })
  p50: number | null;

  @ApiProperty({ nullable: true, type: Number, description: '95th percentile (nearest rank)' })
  p95: number | null;

  @ApiProperty({ nullable: true, type: Number })
  max: number | null;
}

export class DeliveryStatsResponse {
  @ApiProperty({ enum: STATS_WINDOWS })
  window: StatsWindow;

  @ApiProperty({ description: 'Deliveries that ended delivered within the window' })
  delivered: number;

  @ApiProperty({ description: 'Deliveries that ended failed within the window' })
  failed: number;

  @ApiProperty({ description: 'Deliveries pending now, whatever their age' })
  pending: number;

  @ApiProperty({ description: 'Of the delivered and failed ones, those that took more than one attempt' })
  retried: number;

  @ApiProperty({ nullable: true, type: Number, description: 'delivered / (delivered + failed)' })
  success_rate: number | null;

  @ApiProperty({ type: DeliveryLatencyResponse, description: "Delivered ones' last attempt, in ms" })
  latency_ms: DeliveryLatencyResponse;

  @ApiProperty({ nullable: true, type: String })
  last_delivered_at: string | null;

  @ApiProperty({ nullable: true, type: String })
  last_failed_at: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'The error of the last failed delivery' })
  last_error: string | null;
}

export const SERIES_WINDOWS = ['24h', '7d'] as const;
export type SeriesWindow = (typeof SERIES_WINDOWS)[number];

/** GET .../stats/series (docs/reference/webhooks.md#95-the-hourly-series). */
export class DeliverySeriesQueryDto {
  @ApiPropertyOptional({ enum: SERIES_WINDOWS, default: '24h' })
  @IsOptional()
  @IsIn(SERIES_WINDOWS, { message: `window must be one of: ${SERIES_WINDOWS.join(', ')}` })
  window: SeriesWindow = '24h';
}

export class DeliveryBucketResponse {
  @ApiProperty({ format: 'date-time', description: 'The start of the hour (UTC, ISO 8601)' })
  start: string;

  @ApiProperty({ description: 'Deliveries that ended delivered within the hour' })
  delivered: number;

  @ApiProperty({ description: 'Deliveries whose last failure was within the hour' })
  failed: number;

  @ApiProperty({
    nullable: true,
    type: Number,
    description: "95th percentile (nearest rank) of the hour's delivered ones' last attempt, in ms",
  })
  p95_ms: number | null;
}

export class DeliverySeriesResponse {
  @ApiProperty({ enum: SERIES_WINDOWS })
  window: SeriesWindow;

  @ApiProperty({
    type: [DeliveryBucketResponse],
    description: 'One per hour, oldest first: 24 (24h) or 168 (7d), the last the current hour so far',
  })
  buckets: DeliveryBucketResponse[];
}
