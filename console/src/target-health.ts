import { api, read, type Schemas } from './api/client';

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

function statsOf(id: string, window: '1h' | '24h'): Promise<Stats> {
  return read<Stats>(
    api.GET('/api/v1/notifications/{notification_id}/stats', {
      params: { path: { notification_id: id }, query: { window } },
    }),
  );
}

/**
 * A target's state and last 24 hours (GET .../state, .../stats?window=24h), and the success rate of
 * its last hour, asked only where it can tell whether the target is failing: a paused target is
 * failing anyway, and a day without a failure has none in its last hour.
 */
export async function readHealth(id: string): Promise<TargetHealth> {
  const [state, day] = await Promise.all([
    read<TargetState>(
      api.GET('/api/v1/notifications/{notification_id}/state', { params: { path: { notification_id: id } } }),
    ),
    statsOf(id, '24h'),
  ]);
  const hourRate = !state.paused && day.failed > 0 ? (await statsOf(id, '1h')).success_rate : null;
  return { state, day, hourRate };
}
