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

/** The state of a target as a badge: running or paused. */
export function StateBadge({ state }: { state: TargetState }) {
  return state.paused ? <span class="badge paused">Paused</span> : <span class="badge enabled">Running</span>;
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
