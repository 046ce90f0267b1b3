import { api, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, Table, useLoad } from '../components';
import { href, location, navigate } from '../router';
import { readHealth, type TargetHealth } from '../target-health';
import { NotificationPage } from './notification';
import { TargetCreate } from './notification-forms';
import { can } from '../session';
import { latencyText, rateText, StateBadge } from './notification-parts';
import { pageOf } from './page-query';

const PER_PAGE = 25;

type Notification = Schemas['NotificationResponse'];

/** `#/notifications` is the list; `#/notifications/<id>` a target's own page. */
export function NotificationsSection({ segments }: { segments: string[] }) {
  const [id] = segments;
  return id === undefined ? <NotificationsPage /> : <NotificationPage id={id} key={id} />;
}

const HEAD = [
  'Target',
  'URL',
  'Signing key',
  'State',
  'Delivered (24h)',
  'Failed (24h)',
  'Pending',
  'Success rate (24h)',
  'p95 latency (24h)',
];

/**
 * Every webhook target, a page at a time (GET /api/v1/notifications), each with its state and 24h
 * stats; `failing=true` in the hash: only the failing ones (the API's `failing=true`).
 */
export function NotificationsPage() {
  const query = location.value.query;
  const failing = query.get('failing') === 'true';
  return (
    <>
      <PageTitle>Notifications</PageTitle>
      <p class="help page-intro">Webhook targets, with what they received in the last 24 hours.</p>
      {can('notifications:write') && <TargetCreate />}
      <form class="filters" aria-label="Filter targets" onSubmit={(event) => event.preventDefault()}>
        <label>
          Show
          <select
            value={failing ? 'failing' : ''}
            onChange={(event) =>
              navigate(['notifications'], {
                failing: event.currentTarget.value === 'failing' ? 'true' : undefined,
              })
            }
          >
            <option value="">Every target</option>
            <option value="failing">Failing targets only</option>
          </select>
        </label>
      </form>
      <Targets page={pageOf(query)} failing={failing} />
    </>
  );
}

/** A page of the targets, or of the failing ones: paused, or under 90 % delivered in the last hour. */
function Targets({ page, failing }: { page: number; failing: boolean }) {
  const filter = failing ? 'true' : undefined;
  const [load, reload] = useLoad(
    () =>
      readPage(
        api.GET('/api/v1/notifications', {
          params: { query: { page, per_page: PER_PAGE, failing: filter } },
        }),
      ),
    [page, failing],
    true,
  );
  return (
    <Loaded
      load={load}
      what={failing ? 'failing notification targets' : 'notification targets'}
      retry={reload}
    >
      {({ items, pagination }) =>
        items.length === 0 ? (
          failing ? (
            <Empty>
              No target is failing: none is paused, and each delivered at least 90 % of what ended in the last
              hour. <a href={href(['notifications'])}>Show every target</a>.
            </Empty>
          ) : (
            <Empty>
              No notification targets yet. Add one with POST /api/v1/notifications
              (docs/reference/notifications.md), then name it in a relayer&apos;s notification_id or subscribe
              it to relayers.
            </Empty>
          )
        ) : (
          <>
            <Table caption={failing ? 'Failing notification targets' : 'Notification targets'} head={HEAD}>
              {items.map((notification) => (
                <NotificationRow notification={notification} key={notification.id} />
              ))}
            </Table>
            <Pager
              pagination={pagination}
              label={failing ? 'Failing notification targets' : 'Notification targets'}
              onPage={(next) => navigate(['notifications'], { failing: filter, page: next })}
            />
          </>
        )
      }
    </Loaded>
  );
}

/** A target with its state and its last 24 hours (GET .../state and .../stats?window=24h, and ?window=1h when it has failures). */
function NotificationRow({ notification }: { notification: Notification }) {
  const [health] = useLoad(() => readHealth(notification.id), [notification.id], true);
  if (health.state === 'ready') return <NotificationFacts notification={notification} health={health.data} />;
  return (
    <tr>
      <TargetCells notification={notification} />
      <td colSpan={6} class="muted">
        {health.state === 'loading'
          ? 'Loading state and stats…'
          : `State and stats unavailable: ${health.error.message}`}
      </td>
    </tr>
  );
}

function TargetCells({ notification }: { notification: Notification }) {
  return (
    <>
      <th scope="row">
        <a href={href(['notifications', notification.id])}>{notification.id}</a>
      </th>
      <td class="mono">{notification.url}</td>
      <td>{notification.has_signing_key ? 'Yes' : 'No'}</td>
    </>
  );
}

function NotificationFacts({ notification, health }: { notification: Notification; health: TargetHealth }) {
  const { state, day, hourRate } = health;
  return (
    <tr>
      <TargetCells notification={notification} />
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
