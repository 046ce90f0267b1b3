import type { Schemas } from '../api/client';
import { Time } from '../components';
import { now } from '../live';
import { isFailing } from '../target-health';

type TargetState = Schemas['NotificationStateResponse'];

/** A success rate (0 to 1, 4 decimals) as a percentage; "none" before anything ended. */
export function rateText(rate: number | null): string {
  return rate === null ? 'none' : `${Math.round(rate * 10000) / 100} %`;
}

/** A latency in whole milliseconds; "none" without a delivered delivery that has one. */
export function latencyText(ms: number | null): string {
  return ms === null ? 'none' : `${ms} ms`;
}

/**
 * The state of a target as badges: running, or failing (paused, or under 90 % delivered in the last
 * hour, `hourRate`: null when nothing ended in it, which is not failing).
 */
export function StateBadge({ state, hourRate }: { state: TargetState; hourRate: number | null }) {
  if (state.paused)
    return (
      <>
        <span class="badge paused">Paused</span> <span class="badge failed">Failing</span>
      </>
    );
  if (isFailing(false, hourRate))
    return (
      <>
        <span class="badge failed">Failing</span>
        <div class="reason">{rateText(hourRate)} delivered in the last hour</div>
      </>
    );
  return <span class="badge enabled">Running</span>;
}

/**
 * When a pending delivery is attempted next (`next in 30 s`, `due 2 s ago`): not while its target is
 * paused, whenever it was due (docs/reference/webhooks.md#104-while-paused).
 */
export function NextAttempt({ at, paused }: { at: string | null; paused: boolean }) {
  if (paused) return <span class="muted">waits for resume</span>;
  if (!at) return <span class="muted">waiting</span>;
  // Read to follow the clock: a next attempt in the future becomes due.
  void now.value;
  return (
    <>
      {Date.parse(at) > Date.now() ? 'next' : 'due'} <Time value={at} />
    </>
  );
}
