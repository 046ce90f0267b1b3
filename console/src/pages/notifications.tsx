import { api, read, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, Table, useLoad } from '../components';
import { href, location, navigate } from '../router';
import { NotificationPage } from './notification';
import { latencyText, rateText, StateBadge } from './notification-parts';

const PER_PAGE = 25;

type Notification = Schemas['NotificationResponse'];
type TargetState = Schemas['NotificationStateResponse'];
type Stats = Schemas['DeliveryStatsResponse'];

/** `#/notifications` is the list; `#/notifications/<id>` a target's own page. */
export function NotificationsSection({ segments }: { segments: string[] }) {
  const [id] = segments;
  return id === undefined ? <NotificationsPage /> : <NotificationPage id={id} key={id} />;
}

function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** Every webhook target, a page at a time (GET /api/v1/notifications), each with its state and 24h stats. */
export function NotificationsPage() {
  const page = pageOf(location.value.query);
  const [load, reload] = useLoad(
    () => readPage(api.GET('/api/v1/notifications', { params: { query: { page, per_page: PER_PAGE } } })),
    [page],
  );
  return (
    <>
      <PageTitle>Notifications</PageTitle>
      <p class="help">Webhook targets, with what they received in the last 24 hours.</p>
      <Loaded load={load} what="notification targets" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            <Empty>
              No notification targets yet. Add one with POST /api/v1/notifications
              (docs/reference/notifications.md), then name it in a relayer&apos;s notification_id or subscribe
              it to relayers.
            </Empty>
          ) : (
            <>
              <Table
                caption="Notification targets"
                head={[
                  'Target',
                  'URL',
                  'Signing key',
                  'State',
                  'Delivered (24h)',
                  'Failed (24h)',
                  'Pending',
                  'Success rate (24h)',
                  'p95 latency (24h)',
                ]}
              >
                {items.map((notification) => (
                  <NotificationRow notification={notification} key={notification.id} />
                ))}
              </Table>
              <Pager
                pagination={pagination}
                label="Notification targets"
                onPage={(next) => navigate(['notifications'], { page: next })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/** A target with its state and its last 24 hours (GET .../state and .../stats?window=24h, and ?window=1h when it has failures). */
function NotificationRow({ notification }: { notification: Notification }) {
  const path = { params: { path: { notification_id: notification.id } } };
  const statsOf = (window: '1h' | '24h') =>
    read<Stats>(
      api.GET('/api/v1/notifications/{notification_id}/stats', {
        params: { path: path.params.path, query: { window } },
      }),
    );
  const [extra] = useLoad(async () => {
    const [state, day] = await Promise.all([
      read<TargetState>(api.GET('/api/v1/notifications/{notification_id}/state', path)),
      statsOf('24h'),
    ]);
    // Whether it is failing is of its last hour (docs/console.md#3-the-pages), asked only where the day cannot tell:
    // a paused target is failing anyway, and a day without a failure has none in its last hour.
    const hourRate = !state.paused && day.failed > 0 ? (await statsOf('1h')).success_rate : null;
    return { state, day, hourRate };
  }, [notification.id]);
  return (
    <tr>
      <th scope="row">
        <a href={href(['notifications', notification.id])}>{notification.id}</a>
      </th>
      <td class="mono">{notification.url}</td>
      <td>{notification.has_signing_key ? 'Yes' : 'No'}</td>
      {extra.state === 'ready' ? (
        <>
          <td>
            <StateBadge state={extra.data.state} hourRate={extra.data.hourRate} />
            {extra.data.state.paused_reason && <div class="reason">{extra.data.state.paused_reason}</div>}
          </td>
          <td>{extra.data.day.delivered}</td>
          <td>{extra.data.day.failed}</td>
          <td>{extra.data.day.pending}</td>
          <td>{rateText(extra.data.day.success_rate)}</td>
          <td>{latencyText(extra.data.day.latency_ms.p95)}</td>
        </>
      ) : (
        <td colSpan={6} class="muted">
          {extra.state === 'loading'
            ? 'Loading state and stats…'
            : `State and stats unavailable: ${extra.error.message}`}
        </td>
      )}
    </tr>
  );
}
