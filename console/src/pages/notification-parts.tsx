import type { Schemas } from '../api/client';
import { Time } from '../components';

type TargetState = Schemas['NotificationStateResponse'];

/** A success rate (0 to 1, 4 decimals) as a percentage; "none" before anything ended. */
export function rateText(rate: number | null): string {
  return rate === null ? 'none' : `${Math.round(rate * 10000) / 100} %`;
}

/** A latency in whole milliseconds; "none" without a delivered delivery that has one. */
export function latencyText(ms: number | null): string {
  return ms === null ? 'none' : `${ms} ms`;
}

/** A target delivering less than this share of what ended in the last hour is failing (docs/console.md#3-the-pages). */
const FAILING_BELOW = 0.9;

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
  if (hourRate !== null && hourRate < FAILING_BELOW)
    return (
      <>
        <span class="badge failed">Failing</span>
        <div class="reason">{rateText(hourRate)} delivered in the last hour</div>
      </>
    );
  return <span class="badge enabled">Running</span>;
}

/**
 * When a pending delivery is attempted next: not while its target is paused, whenever it was due
 * (docs/reference/webhooks.md#104-while-paused).
 */
export function NextAttempt({ at, paused }: { at: string | null; paused: boolean }) {
  if (paused) return <span class="muted">waits for resume</span>;
  return at ? (
    <>
      next <Time value={at} />
    </>
  ) : (
    <span class="muted">waiting</span>
  );
}
