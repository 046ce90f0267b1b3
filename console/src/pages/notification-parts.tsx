import type { ComponentChildren } from 'preact';
import type { Schemas } from '../api/client';
import { Time, useLoad } from '../components';
import { now } from '../live';
import { href } from '../router';
import { can } from '../session';
import type { TargetCalls } from '../target-calls';
import { isFailing, readHealth } from '../target-health';

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

export function RelayerList({ ids }: { ids: string[] }) {
  return (
    <ul class="notification-relayers">
      {ids.map((relayerId) => (
        <li key={relayerId}>
          <RelayerRef id={relayerId} />
        </li>
      ))}
    </ul>
  );
}

/** A relayer's id, a link to its page when the key may read relayers. */
export function RelayerRef({ id }: { id: string }) {
  return can('relayers:read') ? (
    <a class="mono" href={href(['relayers', id])}>
      {id}
    </a>
  ) : (
    <span class="mono">{id}</span>
  );
}

/** The columns of a target's health in a list, after its own (HealthRow). */
export const HEALTH_HEAD = [
  'State',
  'Delivered (24h)',
  'Failed (24h)',
  'Pending',
  'Success rate (24h)',
  'p95 latency (24h)',
];

/**
 * A row of a list of webhook targets or alert channels: its own cells (`children`), then its state and
 * last 24 hours (GET .../state and .../stats?window=24h, and ?window=1h when it has failures: readHealth).
 */
export function HealthRow({ target, children }: { target: TargetCalls; children: ComponentChildren }) {
  const [health] = useLoad(() => readHealth(target), [target.kind, target.id], true);
  if (health.state !== 'ready')
    return (
      <tr>
        {children}
        <td colSpan={HEALTH_HEAD.length} class="muted">
          {health.state === 'loading'
            ? 'Loading state and stats…'
            : `State and stats unavailable: ${health.error.message}`}
        </td>
      </tr>
    );
  const { state, day, hourRate } = health.data;
  return (
    <tr>
      {children}
      <td>
        <StateBadge state={state} hourRate={hourRate} />
        {state.paused_reason && <div class="reason">{state.paused_reason}</div>}
      </td>
      <td>{day.delivered}</td>
      <td>{day.failed}</td>
      <td>{day.pending}</td>
      <td>{rateText(day.success_rate)}</td>
      <td>{latencyText(day.latency_ms.p95)}</td>
    </tr>
  );
}
