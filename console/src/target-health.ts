import type { Schemas } from './api/client';
import type { TargetCalls } from './target-calls';

type TargetState = Schemas['NotificationStateResponse'];
type Stats = Schemas['DeliveryStatsResponse'];

/** A target delivering less than this share of what ended in the last hour is failing (docs/console.md#3-the-pages). */
export const FAILING_BELOW = 0.9;

/**
 * Whether a target is failing: paused, or under 90 % delivered in its last hour (`hourRate`; null when
 * nothing ended in it, which is not failing).
 */
export function isFailing(paused: boolean, hourRate: number | null): boolean {
  return paused || (hourRate !== null && hourRate < FAILING_BELOW);
}

export interface TargetHealth {
  state: TargetState;
  /** Its last 24 hours. */
  day: Stats;
  /** The success rate of its last hour; null when paused (failing anyway) or when nothing ended in it. */
  hourRate: number | null;
}

/**
 * A target's or a channel's state and last 24 hours (GET .../state, .../stats?window=24h), and the success rate of
 * its last hour, asked only where it can tell whether the target is failing: a paused target is
 * failing anyway, and a day without a failure has none in its last hour.
 */
export async function readHealth(target: TargetCalls): Promise<TargetHealth> {
  const [state, day] = await Promise.all([target.state(), target.stats('24h')]);
  const hourRate = !state.paused && day.failed > 0 ? (await target.stats('1h')).success_rate : null;
  return { state, day, hourRate };
}
