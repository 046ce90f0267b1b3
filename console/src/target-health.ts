import { api, read, readPage, type Schemas } from './api/client';

type Notification = Schemas['NotificationResponse'];
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
  /** Its last 24 hours, when asked for. */
  day: Stats | null;
  /** The success rate of its last hour; null when paused (failing anyway) or when nothing ended in it. */
  hourRate: number | null;
  failing: boolean;
}

function statsOf(id: string, window: '1h' | '24h'): Promise<Stats> {
  return read<Stats>(
    api.GET('/api/v1/notifications/{notification_id}/stats', {
      params: { path: { notification_id: id }, query: { window } },
    }),
  );
}

/**
 * A target's state and whether it is failing (GET .../state, .../stats?window=24h when `withDay`),
 * its last hour asked only where it can tell: a paused target is failing anyway, and a day without a
 * failure has none in its last hour.
 */
export async function readHealth(id: string, withDay: boolean): Promise<TargetHealth> {
  const [state, day] = await Promise.all([
    read<TargetState>(
      api.GET('/api/v1/notifications/{notification_id}/state', { params: { path: { notification_id: id } } }),
    ),
    withDay ? statsOf(id, '24h') : Promise.resolve(null),
  ]);
  const hourRate =
    !state.paused && (day === null || day.failed > 0) ? (await statsOf(id, '1h')).success_rate : null;
  return { state, day, hourRate, failing: isFailing(state.paused, hourRate) };
}

/** How many targets the failing count and filter look at: the first page of 100 (the list's largest). */
export const TARGETS_SCANNED = 100;

/** The first 100 targets the key may read with their health, and how many targets it may read in all. */
export async function scanTargets(
  withDay: boolean,
): Promise<{ targets: { notification: Notification; health: TargetHealth }[]; total: number }> {
  const { items, pagination } = await readPage(
    api.GET('/api/v1/notifications', { params: { query: { page: 1, per_page: TARGETS_SCANNED } } }),
  );
  const targets = await Promise.all(
    items.map(async (notification) => ({ notification, health: await readHealth(notification.id, withDay) })),
  );
  return { targets, total: pagination.total_items };
}
