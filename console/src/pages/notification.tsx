import { useCallback, useRef, useState } from 'preact/hooks';
import { api, read, readCursorPage, type Schemas } from '../api/client';
import {
  useAnswerAction,
  Empty,
  ErrorState,
  Loaded,
  Loading,
  OutcomeText,
  CursorPager,
  PageTitle,
  Table,
  Time,
  useAction,
  useLoad,
  type Load,
  type Outcome,
} from '../components';
import { href, location, navigate } from '../router';
import { can } from '../session';
import { latencyText, NextAttempt, rateText, StateBadge } from './notification-parts';
import { HistoryPanel } from './target-history';
import { ConfirmDialog } from '../dialog';
import { controlProps, FieldError, useFieldErrors } from '../forms';
import {
  EVENTS,
  planReplay,
  SubscriptionForm,
  TargetEdit,
  type ReplayAsked,
  type ReplayPlan,
} from './notification-forms';

const PER_PAGE = 25;
const WINDOWS = ['1h', '24h', '7d'] as const;
type StatsWindow = (typeof WINDOWS)[number];
const STATUSES = ['pending', 'delivered', 'failed'] as const;
type Status = (typeof STATUSES)[number];
const STATUS_LABEL: Record<Status, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
const REPLAYABLE = ['failed', 'delivered'] as const;
type Replayable = (typeof REPLAYABLE)[number];
type EventName = (typeof EVENTS)[number];
type Notification = Schemas['NotificationResponse'];

type TargetState = Schemas['NotificationStateResponse'];
type Delivery = Schemas['DeliveryResponse'];

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

/** One webhook target: what it is, its state, stats, subscription and delivery log, with its actions. */
export function NotificationPage({ id }: { id: string }) {
  const path = { params: { path: { notification_id: id } } };
  const [load, reload] = useLoad(
    () => read(api.GET('/api/v1/notifications/{notification_id}', path)),
    [id],
    true,
  );
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => setRound((n) => n + 1), []);
  // Read here, not in its panel: whether the target is paused also says when its deliveries go next.
  const [stateLoad, reloadState] = useLoad(
    () => read(api.GET('/api/v1/notifications/{notification_id}/state', path)),
    [id],
    true,
  );
  // What pause or resume answered, shown until the state read after it (over: the load it replaces).
  const [fresh, setFresh] = useState<{ data: TargetState; over: Load<TargetState> } | null>(null);
  const state: Load<TargetState> =
    fresh !== null && fresh.over === stateLoad ? { state: 'ready', data: fresh.data } : stateLoad;
  const answered = (data: TargetState) => {
    setFresh({ data, over: stateLoad });
    reloadState();
  };
  const health = useHealth(id, state, round);
  return (
    <>
      <PageTitle>Notification target {id}</PageTitle>
      <p>
        <a href={href(['notifications'])}>All notification targets</a>
      </p>
      {load.state === 'loading' ? (
        <Loading what="the notification target" />
      ) : load.state === 'error' ? (
        <ErrorState
          error={load.error}
          what="the notification target"
          retry={load.error.status === 404 ? undefined : reload}
        />
      ) : (
        <>
          <dl class="facts">
            <dt>Id</dt>
            <dd class="mono">{load.data.id}</dd>
            <dt>Type</dt>
            <dd>{load.data.type}</dd>
            <dt>URL</dt>
            <dd class="mono">{load.data.url}</dd>
            <dt>Signing key</dt>
            <dd>{load.data.has_signing_key ? 'Yes (never shown)' : 'No'}</dd>
          </dl>
          {can('notifications:write') && <TargetEdit target={load.data} onChanged={reload} />}
          <StatePanel
            target={load.data}
            load={health.load}
            retry={state.state === 'error' ? reloadState : health.retry}
            onState={answered}
            onChange={refresh}
          />
          <StatsPanel id={id} round={round} />
          <HistoryPanel id={id} round={round} />
          <SubscriptionPanel id={id} />
          <DeliveriesPanel
            target={load.data}
            paused={state.state === 'ready' && state.data.paused}
            round={round}
            onChange={refresh}
          />
        </>
      )}
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
  id: string,
  state: Load<TargetState>,
  round: number,
): { load: Load<Health>; retry: () => void } {
  const paused = state.state === 'ready' ? state.data.paused : null;
  const [hour, retry] = useLoad(
    () =>
      paused === false
        ? read(
            api.GET('/api/v1/notifications/{notification_id}/stats', {
              params: { path: { notification_id: id }, query: { window: '1h' } },
            }),
          ).then((stats) => stats.success_rate)
        : Promise.resolve(null),
    [id, paused, round],
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

/** Paused or running, why and since when, the signing-key overlap; pause, resume and a test event. */
function StatePanel({
  target,
  load,
  retry,
  onState,
  onChange,
}: {
  target: Notification;
  load: Load<Health>;
  retry: () => void;
  onState: (state: TargetState) => void;
  onChange: () => void;
}) {
  const path = { params: { path: { notification_id: target.id } } };
  const [outcome, busy, act] = useAction();
  const [tested, testing, test] = useAnswerAction();
  const [asking, setAsking] = useState(false);
  const mayWrite = can('notifications:write');
  const change = async (to: 'pause' | 'resume') => {
    const ok = await act(
      async () => {
        const state = await read(
          to === 'pause'
            ? api.POST('/api/v1/notifications/{notification_id}/pause', path)
            : api.POST('/api/v1/notifications/{notification_id}/resume', path),
        );
        onState(state);
      },
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
              <dt>Previous signing key signs until</dt>
              <dd>
                {state.signing_key_overlap_until ? (
                  <Time value={state.signing_key_overlap_until} />
                ) : (
                  <span class="muted">no overlap</span>
                )}
              </dd>
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
                      () => read(api.POST('/api/v1/notifications/{notification_id}/test', path)),
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
                title={`Pause target ${target.id}?`}
                confirm={`Pause ${target.id}`}
                onConfirm={() => change('pause')}
                onClose={() => setAsking(false)}
              >
                <p>
                  Nothing is sent to {target.url} until it is resumed. The events of the relayers it hears
                  wait, pending, and are sent in order on resume; Send a test still sends.
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
function StatsPanel({ id, round }: { id: string; round: number }) {
  const view = viewOf(location.value.query);
  const [load, reload] = useLoad(
    () =>
      read(
        api.GET('/api/v1/notifications/{notification_id}/stats', {
          params: { path: { notification_id: id }, query: { window: view.window } },
        }),
      ),
    [id, view.window, round],
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
            onClick={() => navigate(['notifications', id], { ...view, window: w })}
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

/** Which events and relayers the target receives (GET .../subscription); edited with notifications:write. */
function SubscriptionPanel({ id }: { id: string }) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<Outcome | null>(null);
  const [load, reload] = useLoad(
    () =>
      read(
        api.GET('/api/v1/notifications/{notification_id}/subscription', {
          params: { path: { notification_id: id } },
        }),
      ),
    [id],
    true,
  );
  return (
    <section class="panel" aria-labelledby="subscription-heading">
      <h2 id="subscription-heading">Subscription</h2>
      <Loaded load={load} what="the subscription" retry={reload}>
        {(subscription) => (
          <>
            <dl class="facts">
              <dt>Events</dt>
              <dd>
                {subscription.events === null
                  ? 'Every event'
                  : `${subscription.events.join(', ')} (notification_test is always sent)`}
              </dd>
              <dt>Relayers</dt>
              <dd>
                {subscription.relayer_ids === null ? (
                  'Only the relayers whose notification_id names this target'
                ) : subscription.relayer_ids[0] === '*' ? (
                  'Every relayer'
                ) : subscription.relayer_ids.length === 0 ? (
                  'None of the relayers this key may see'
                ) : (
                  <RelayerList ids={subscription.relayer_ids} />
                )}
              </dd>
            </dl>
            {can('notifications:write') &&
              (editing ? (
                <SubscriptionForm
                  id={id}
                  subscription={subscription}
                  onDone={() => {
                    setEditing(false);
                    setSaved({
                      kind: 'ok',
                      text: 'Subscription saved: it applies to the changes made from now on.',
                    });
                    reload();
                  }}
                  onCancel={() => setEditing(false)}
                />
              ) : (
                <div class="actions">
                  <button
                    type="button"
                    onClick={() => {
                      setSaved(null);
                      setEditing(true);
                    }}
                  >
                    Edit subscription
                  </button>
                </div>
              ))}
            {can('notifications:write') && <OutcomeText outcome={saved} />}
          </>
        )}
      </Loaded>
    </section>
  );
}

function RelayerList({ ids }: { ids: string[] }) {
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
function RelayerRef({ id }: { id: string }) {
  return can('relayers:read') ? (
    <a class="mono" href={href(['relayers', id])}>
      {id}
    </a>
  ) : (
    <span class="mono">{id}</span>
  );
}

/** The delivery log, newest first, paged and filtered by the API; retry and replay. */
function DeliveriesPanel({
  target,
  paused,
  round,
  onChange,
}: {
  target: Notification;
  paused: boolean;
  round: number;
  onChange: () => void;
}) {
  const id = target.id;
  const view = viewOf(location.value.query);
  const [load, reload] = useLoad(
    () =>
      readCursorPage(
        api.GET('/api/v1/notifications/{notification_id}/deliveries', {
          params: {
            path: { notification_id: id },
            query: { limit: PER_PAGE, status: view.status, ...(view.cursor ? { cursor: view.cursor } : {}) },
          },
        }),
      ),
    [id, view.cursor, view.status, round],
    true,
  );
  // Retry and replay re-send relayer data: the API asks for both permissions.
  const mayResend = can('notifications:write') && can('relayers:read');
  const [outcome, busy, act] = useAction();
  const retry = async (delivery: Delivery) => {
    const ok = await act(
      () =>
        read(
          api.POST('/api/v1/notifications/{notification_id}/deliveries/{delivery_id}/retry', {
            params: { path: { notification_id: id, delivery_id: delivery.id } },
          }),
        ),
      `Delivery ${delivery.id} queued again.`,
    );
    if (ok) onChange();
  };
  const show = (change: Partial<View>) => navigate(['notifications', id], { ...view, ...change });
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
                : 'No deliveries yet. Events of the relayers this target receives appear here; Send a test to try the receiver.'}
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
      {mayResend && <ReplayForm target={target} paused={paused} onDone={onChange} />}
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
  paused,
  onDone,
}: {
  target: Notification;
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
      () => planReplay(target, asked, paused),
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
        errors.guard(() =>
          read(
            api.POST('/api/v1/notifications/{notification_id}/deliveries/replay', {
              params: { path: { notification_id: target.id } },
              body: { ...asked, event: EVENTS.find((name) => name === asked.event) },
            }),
          ),
        ),
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
