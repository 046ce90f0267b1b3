import type { ComponentChildren } from 'preact';
import { useCallback, useRef, useState } from 'preact/hooks';
import type { Schemas } from '../api/client';
import {
  useAnswerAction,
  Empty,
  Loaded,
  OutcomeText,
  CursorPager,
  Table,
  Time,
  useAction,
  useLoad,
  type Load,
  type Outcome,
} from '../components';
import { location, navigate } from '../router';
import { can } from '../session';
import type { TargetCalls, TargetKind } from '../target-calls';
import { latencyText, NextAttempt, rateText, RelayerRef, StateBadge } from './notification-parts';
import { HistoryPanel } from './target-history';
import { ConfirmDialog } from '../dialog';
import { controlProps, FieldError, useFieldErrors } from '../forms';
import { EVENTS } from './notification-forms';

const PER_PAGE = 25;
const WINDOWS = ['1h', '24h', '7d'] as const;
type StatsWindow = (typeof WINDOWS)[number];
const STATUSES = ['pending', 'delivered', 'failed'] as const;
type Status = (typeof STATUSES)[number];
const STATUS_LABEL: Record<Status, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
const REPLAYABLE = ['failed', 'delivered'] as const;
type Replayable = (typeof REPLAYABLE)[number];
type EventName = (typeof EVENTS)[number];

type TargetState = Schemas['NotificationStateResponse'];
type Delivery = Schemas['DeliveryResponse'];

/** What the panels call a target of each kind in their sentences. */
export const NOUN: Record<TargetKind, string> = { notifications: 'target', 'alert-channels': 'channel' };

interface View {
  window: StatsWindow;
  status?: Status;
  /** The delivery log's page by cursor (docs/reference/pagination.md#17-cursors); none: the newest. */
  cursor?: string;
}

function viewOf(query: URLSearchParams): View {
  const chosen = query.get('window');
  const status = query.get('status');
  const cursor = query.get('cursor');
  return {
    window: WINDOWS.find((w) => w === chosen) ?? '24h',
    status: STATUSES.find((s) => s === status),
    cursor: cursor === null || cursor === '' ? undefined : cursor,
  };
}

/**
 * What a webhook target and an alert channel share, on their pages: the state with pause, resume and
 * a test; the stats; the hourly charts; what `children` adds there; the delivery log with retry and
 * replay. `where` says where its deliveries go, as the API shows it (a URL, masked where it holds a
 * secret; recipients).
 */
export function TargetPanels({
  target,
  where,
  children,
}: {
  target: TargetCalls;
  where: string;
  children?: ComponentChildren;
}) {
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => setRound((n) => n + 1), []);
  // Read here, not in its panel: whether the target is paused also says when its deliveries go next.
  const [stateLoad, reloadState] = useLoad(() => target.state(), [target.kind, target.id], true);
  // What pause or resume answered, shown until the state read after it (over: the load it replaces).
  const [fresh, setFresh] = useState<{ data: TargetState; over: Load<TargetState> } | null>(null);
  const state: Load<TargetState> =
    fresh !== null && fresh.over === stateLoad ? { state: 'ready', data: fresh.data } : stateLoad;
  const answered = (data: TargetState) => {
    setFresh({ data, over: stateLoad });
    reloadState();
  };
  const health = useHealth(target, state, round);
  return (
    <>
      <StatePanel
        target={target}
        where={where}
        load={health.load}
        retry={state.state === 'error' ? reloadState : health.retry}
        onState={answered}
        onChange={refresh}
      />
      <StatsPanel target={target} round={round} />
      <HistoryPanel target={target} round={round} />
      {children}
      <DeliveriesPanel
        target={target}
        where={where}
        paused={state.state === 'ready' && state.data.paused}
        round={round}
        onChange={refresh}
      />
    </>
  );
}

interface Health {
  state: TargetState;
  /** The success rate of its last hour; null when paused (failing anyway) or when nothing ended in it. */
  hourRate: number | null;
}

/**
 * The state with what says whether the target is failing (docs/console.md#3-the-pages): a running target's last
 * hour, read again on each change of the page; what the last read said is kept meanwhile, so that
 * the panel does not flicker.
 */
function useHealth(
  target: TargetCalls,
  state: Load<TargetState>,
  round: number,
): { load: Load<Health>; retry: () => void } {
  const paused = state.state === 'ready' ? state.data.paused : null;
  const [hour, retry] = useLoad(
    () => (paused === false ? target.stats('1h').then((stats) => stats.success_rate) : Promise.resolve(null)),
    [target.kind, target.id, paused, round],
    true,
  );
  const kept = useRef<number | null | undefined>(undefined);
  if (hour.state === 'ready' && paused === false) kept.current = hour.data;
  if (state.state !== 'ready') return { load: state, retry };
  if (state.data.paused)
    return { load: { state: 'ready', data: { state: state.data, hourRate: null } }, retry };
  if (hour.state === 'error') return { load: hour, retry };
  return {
    load:
      kept.current === undefined
        ? { state: 'loading' }
        : { state: 'ready', data: { state: state.data, hourRate: kept.current } },
    retry,
  };
}

/**
 * Paused or running, why and since when (a webhook target's signing-key overlap too); pause, resume
 * and a test.
 */
function StatePanel({
  target,
  where,
  load,
  retry,
  onState,
  onChange,
}: {
  target: TargetCalls;
  where: string;
  load: Load<Health>;
  retry: () => void;
  onState: (state: TargetState) => void;
  onChange: () => void;
}) {
  const [outcome, busy, act] = useAction();
  const [tested, testing, test] = useAnswerAction();
  const [asking, setAsking] = useState(false);
  const mayWrite = can('notifications:write');
  const change = async (to: 'pause' | 'resume') => {
    const ok = await act(
      async () => onState(await (to === 'pause' ? target.pause() : target.resume())),
      to === 'pause'
        ? 'Paused: deliveries wait until it is resumed.'
        : 'Resumed: waiting deliveries are sent in order.',
    );
    if (ok) onChange();
  };
  return (
    <section class="panel" aria-labelledby="state-heading">
      <h2 id="state-heading">State</h2>
      <Loaded load={load} what="the state" retry={retry}>
        {({ state, hourRate }) => (
          <>
            <dl class="facts">
              <dt>State</dt>
              <dd>
                <StateBadge state={state} hourRate={hourRate} />
              </dd>
              <dt>Reason</dt>
              <dd>{state.paused_reason ?? <span class="muted">none</span>}</dd>
              <dt>Since</dt>
              <dd>
                <Time value={state.paused_at} />
              </dd>
              {/* Alert channels sign nothing. */}
              {target.kind === 'notifications' && (
                <>
                  <dt>Previous signing key signs until</dt>
                  <dd>
                    {state.signing_key_overlap_until ? (
                      <Time value={state.signing_key_overlap_until} />
                    ) : (
                      <span class="muted">no overlap</span>
                    )}
                  </dd>
                </>
              )}
            </dl>
            {mayWrite && (
              <div class="actions">
                {state.paused ? (
                  <button type="button" class="primary" disabled={busy} onClick={() => void change('resume')}>
                    Resume
                  </button>
                ) : (
                  <button type="button" class="danger" disabled={busy} onClick={() => setAsking(true)}>
                    Pause
                  </button>
                )}
                <button
                  type="button"
                  disabled={testing}
                  onClick={() =>
                    void test(
                      () => target.test(),
                      (answer) => {
                        onChange();
                        return testOutcome(answer);
                      },
                    )
                  }
                >
                  Send a test
                </button>
              </div>
            )}
            {mayWrite && <OutcomeText outcome={outcome} />}
            {mayWrite && <OutcomeText outcome={tested} />}
            {asking && (
              <ConfirmDialog
                title={`Pause ${NOUN[target.kind]} ${target.id}?`}
                confirm={`Pause ${target.id}`}
                onConfirm={() => change('pause')}
                onClose={() => setAsking(false)}
              >
                <p>
                  Nothing is sent to {where} until it is resumed. The events of the relayers it hears wait,
                  pending, and are sent in order on resume; Send a test still sends.
                </p>
              </ConfirmDialog>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** What POST .../test answered, in words. */
function testOutcome(answer: Schemas['TestDeliveryResponse']): Outcome {
  const status = answer.status_code === null ? 'no answer' : `HTTP ${answer.status_code}`;
  return answer.delivered
    ? { kind: 'ok', text: `Test delivered: ${status} in ${answer.duration_ms} ms.` }
    : {
        kind: 'error',
        text: `Test not delivered: ${status}${answer.error && answer.error !== status ? ` (${answer.error})` : ''} after ${answer.duration_ms} ms.`,
      };
}

/** The delivery log summed up over a window chosen in the hash (GET .../stats?window=). */
function StatsPanel({ target, round }: { target: TargetCalls; round: number }) {
  const view = viewOf(location.value.query);
  const [load, reload] = useLoad(
    () => target.stats(view.window),
    [target.kind, target.id, view.window, round],
    true,
  );
  return (
    <section class="panel" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Stats</h2>
      <div class="actions" role="group" aria-label="Stats window">
        {WINDOWS.map((w) => (
          <button
            type="button"
            key={w}
            aria-pressed={w === view.window}
            class={w === view.window ? 'primary' : undefined}
            onClick={() => navigate(target.page, { ...view, window: w })}
          >
            Last {w}
          </button>
        ))}
      </div>
      <Loaded load={load} what="the stats" retry={reload}>
        {(stats) => (
          <dl class="facts notification-stats">
            <dt>Delivered</dt>
            <dd>{stats.delivered}</dd>
            <dt>Failed</dt>
            <dd>{stats.failed}</dd>
            <dt>Retried</dt>
            <dd>{stats.retried}</dd>
            <dt>Pending now</dt>
            <dd>{stats.pending}</dd>
            <dt>Success rate</dt>
            <dd>{rateText(stats.success_rate)}</dd>
            <dt>Latency p50 / p95 / max</dt>
            <dd>
              {latencyText(stats.latency_ms.p50)} / {latencyText(stats.latency_ms.p95)} /{' '}
              {latencyText(stats.latency_ms.max)}
            </dd>
            <dt>Last delivered</dt>
            <dd>
              <Time value={stats.last_delivered_at} />
            </dd>
            <dt>Last failed</dt>
            <dd>
              <Time value={stats.last_failed_at} />
            </dd>
            <dt>Last error</dt>
            <dd>{stats.last_error ?? <span class="muted">none</span>}</dd>
          </dl>
        )}
      </Loaded>
    </section>
  );
}

/** The delivery log, newest first, paged and filtered by the API; retry and replay. */
function DeliveriesPanel({
  target,
  where,
  paused,
  round,
  onChange,
}: {
  target: TargetCalls;
  where: string;
  paused: boolean;
  round: number;
  onChange: () => void;
}) {
  const view = viewOf(location.value.query);
  const [load, reload] = useLoad(
    () => target.deliveries({ limit: PER_PAGE, status: view.status, cursor: view.cursor }),
    [target.kind, target.id, view.cursor, view.status, round],
    true,
  );
  // Retry and replay re-send relayer data: the API asks for both permissions.
  const mayResend = can('notifications:write') && can('relayers:read');
  const [outcome, busy, act] = useAction();
  const retry = async (delivery: Delivery) => {
    const ok = await act(() => target.retry(delivery.id), `Delivery ${delivery.id} queued again.`);
    if (ok) onChange();
  };
  const show = (change: Partial<View>) => navigate(target.page, { ...view, ...change });
  return (
    <section class="panel" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <form class="filters" aria-label="Filter deliveries" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select
            value={view.status ?? ''}
            onChange={(event) =>
              show({ status: STATUSES.find((s) => s === event.currentTarget.value), cursor: undefined })
            }
          >
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </form>
      {mayResend && <OutcomeText outcome={outcome} />}
      <Loaded load={load} what="the deliveries" retry={reload}>
        {({ items, nextCursor }) =>
          items.length === 0 ? (
            <Empty>
              {view.status
                ? `No ${view.status} delivery. Choose another status, or Any.`
                : `No deliveries yet. Events of the relayers this ${NOUN[target.kind]} receives appear here; Send a test to try the receiver.`}
            </Empty>
          ) : (
            <>
              <Table
                caption={`Deliveries${view.status ? ` (${view.status})` : ''}`}
                head={[
                  'Event',
                  'Relayer',
                  'Status',
                  'Attempts',
                  'Last status code',
                  'Last error',
                  'Created',
                  'Delivered or next attempt',
                  ...(mayResend ? ['Action'] : []),
                ]}
              >
                {items.map((delivery) => (
                  <tr key={delivery.id}>
                    <th scope="row">
                      {delivery.event}
                      <div class="muted id">{delivery.id}</div>
                    </th>
                    <td>
                      {delivery.relayer_id === null ? (
                        <span class="muted">none</span>
                      ) : (
                        <RelayerRef id={delivery.relayer_id} />
                      )}
                    </td>
                    <td>
                      <span class={`badge ${delivery.status}`}>{STATUS_LABEL[delivery.status]}</span>
                    </td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.last_status_code ?? <span class="muted">none</span>}</td>
                    <td>{delivery.last_error ?? <span class="muted">none</span>}</td>
                    <td>
                      <Time value={delivery.created_at} />
                    </td>
                    <td>
                      {delivery.status === 'pending' ? (
                        <NextAttempt at={delivery.next_attempt_at} paused={paused} />
                      ) : (
                        <Time value={delivery.delivered_at} />
                      )}
                    </td>
                    {mayResend && (
                      <td>
                        {delivery.status !== 'pending' && (
                          <button
                            type="button"
                            class="notification-retry"
                            disabled={busy}
                            onClick={() => void retry(delivery)}
                          >
                            Retry<span class="visually-hidden"> delivery {delivery.id}</span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </Table>
              <CursorPager
                label="Deliveries"
                atNewest={view.cursor === undefined}
                nextCursor={nextCursor}
                onNewest={() => show({ cursor: undefined })}
                onOlder={(cursor) => show({ cursor })}
              />
            </>
          )
        }
      </Loaded>
      {mayResend && <ReplayForm target={target} where={where} paused={paused} onDone={onChange} />}
    </section>
  );
}

/** A datetime-local field's value (the browser's local time) as RFC 3339 in UTC; undefined when empty. */
function instant(value: string): string | undefined {
  if (value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/**
 * POST .../deliveries/replay: every failed (or delivered) delivery of a span, queued again, after a
 * dialog that says how many and where (planReplay).
 */
function ReplayForm({
  target,
  where,
  paused,
  onDone,
}: {
  target: TargetCalls;
  where: string;
  paused: boolean;
  onDone: () => void;
}) {
  const [status, setStatus] = useState<Replayable>('failed');
  const [event, setEvent] = useState<EventName | ''>('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [outcome, busy, act] = useAnswerAction();
  const [plan, setPlan] = useState<{ asked: ReplayAsked; plan: ReplayPlan } | null>(null);
  const errors = useFieldErrors(['since', 'until']);
  const replayButton = useRef<HTMLButtonElement>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    errors.clear();
    const asked: ReplayAsked = {
      status,
      since: instant(since),
      until: instant(until),
      event: event === '' ? undefined : event,
    };
    void act(
      () => planReplay(target, where, asked, paused),
      (planned) => {
        if (planned.count === 0) return { kind: 'ok', text: `No ${status} delivery to replay.` };
        setPlan({ asked, plan: planned });
        return null;
      },
    );
  };
  const replay = (asked: ReplayAsked) =>
    act(
      () =>
        errors.guard(() => target.replay({ ...asked, event: EVENTS.find((name) => name === asked.event) })),
      (answer) => {
        onDone();
        return {
          kind: 'ok',
          text: `Replay: ${answer.queued} queued again, ${answer.remaining} left for another call.`,
        };
      },
    );
  return (
    <form class="panel replay" aria-labelledby="replay-heading" onSubmit={submit}>
      <h3 id="replay-heading">Replay deliveries</h3>
      <p class="help">
        Queues again every delivery with this status (at most 10,000 a call, oldest first), with its event id
        unchanged. Times are optional, in this browser's time zone.
      </p>
      <div class="filters">
        <label>
          Replay status
          <select
            value={status}
            onChange={(e) => setStatus(REPLAYABLE.find((s) => s === e.currentTarget.value) ?? 'failed')}
          >
            {REPLAYABLE.map((s) => (
              <option value={s} key={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Event
          <select
            value={event}
            onChange={(e) => setEvent(EVENTS.find((n) => n === e.currentTarget.value) ?? '')}
          >
            <option value="">Any event</option>
            {EVENTS.map((n) => (
              <option value={n} key={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Created since
          <input
            type="datetime-local"
            {...controlProps('replay-since', errors.of('since'), false)}
            step={1}
            value={since}
            onInput={(e) => setSince(e.currentTarget.value)}
          />
        </label>
        <label>
          Created before
          <input
            type="datetime-local"
            {...controlProps('replay-until', errors.of('until'), false)}
            step={1}
            value={until}
            onInput={(e) => setUntil(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy} ref={replayButton}>
          Replay
        </button>
      </div>
      <FieldError id="replay-since" error={errors.of('since')} />
      <FieldError id="replay-until" error={errors.of('until')} />
      <OutcomeText outcome={outcome} />
      {plan !== null && (
        <ConfirmDialog
          title={plan.plan.title}
          confirm={plan.plan.confirm}
          onConfirm={() => replay(plan.asked)}
          onClose={() => setPlan(null)}
          opener={replayButton}
        >
          {plan.plan.notes.map((note) => (
            <p key={note} class={note.startsWith('Warning') ? 'warning' : undefined}>
              {note}
            </p>
          ))}
        </ConfirmDialog>
      )}
    </form>
  );
}

/** A replay's filters, as the form has them. */
export interface ReplayAsked {
  status: 'failed' | 'delivered';
  event?: string;
  since?: string;
  until?: string;
}

/** What the replay dialog says: how many, where, and what may follow. */
export interface ReplayPlan {
  count: number;
  title: string;
  /** The confirming button's words. */
  confirm: string;
  notes: string[];
}

/** One call queues at most this many (docs/reference/webhooks.md#71-queuing-a-targets-deliveries-again). */
const REPLAY_LIMIT = 10_000;
/** WEBHOOK_PAUSE_AFTER_FAILURES's default: that many failures in a row pause a target by itself. */
const SELF_PAUSE_DEFAULT = 50;

const count = (n: number) => n.toLocaleString('en-US');
const deliveries = (n: number) => `${count(n)} ${n === 1 ? 'delivery' : 'deliveries'}`;

/**
 * Counts what a replay would queue, from the delivery log's count of that status (one read), and
 * reads the target's (or the channel's) last outcome (its stats): the count is exact without event or time filters (the
 * log cannot filter by them, so with them it is at most that), and the dialog warns when the receiver
 * is failing and the replay alone could pause the target by itself.
 */
export async function planReplay(
  target: TargetCalls,
  where: string,
  asked: ReplayAsked,
  paused: boolean,
): Promise<ReplayPlan> {
  const [total, stats] = await Promise.all([target.count(asked.status), target.stats('1h')]);
  const noun = NOUN[target.kind];
  const queued = Math.min(total, REPLAY_LIMIT);
  const filtered = asked.event !== undefined || asked.since !== undefined || asked.until !== undefined;
  const notes: string[] = [];
  if (filtered)
    notes.push(
      `${deliveries(total)} of this ${noun} ${total === 1 ? 'is' : 'are'} ${asked.status}; the event and times chosen may match fewer.`,
    );
  if (total > REPLAY_LIMIT)
    notes.push(
      `One replay queues the oldest ${count(REPLAY_LIMIT)}; the others wait for another replay once these are sent.`,
    );
  notes.push(
    'Each is sent again as it was first sent, with its event id, oldest first. Those replayed in the last hour are skipped.',
  );
  if (paused) notes.push(`The ${noun} is paused: they wait, pending, until it is resumed.`);
  const failingNow =
    stats.last_failed_at !== null &&
    (stats.last_delivered_at === null ||
      Date.parse(stats.last_failed_at) > Date.parse(stats.last_delivered_at));
  if (asked.status === 'failed' && failingNow && queued >= SELF_PAUSE_DEFAULT)
    notes.push(
      `Warning: its last delivery failed${stats.last_error ? ` (${stats.last_error})` : ''}. If the receiver still fails, ${SELF_PAUSE_DEFAULT} failures in a row (WEBHOOK_PAUSE_AFTER_FAILURES, ${SELF_PAUSE_DEFAULT} by default) pause the ${noun} by itself, and the rest wait.`,
    );
  return {
    count: queued,
    title: `Queue ${filtered ? 'at most ' : ''}${deliveries(queued)} to ${where}?`,
    confirm: `Queue ${filtered ? 'at most ' : ''}${deliveries(queued)}`,
    notes,
  };
}
