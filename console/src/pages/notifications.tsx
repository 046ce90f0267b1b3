import { api, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, Table, useLoad } from '../components';
import { href, location, navigate } from '../router';
import { targetCalls } from '../target-calls';
import { NotificationPage } from './notification';
import { TargetCreate } from './notification-forms';
import { can } from '../session';
import { HEALTH_HEAD, HealthRow } from './notification-parts';
import { pageOf } from './page-query';

const PER_PAGE = 25;

type Notification = Schemas['NotificationResponse'];

/** `#/notifications` is the list; `#/notifications/<id>` a target's own page. */
export function NotificationsSection({ segments }: { segments: string[] }) {
  const [id] = segments;
  return id === undefined ? <NotificationsPage /> : <NotificationPage id={id} key={id} />;
}

const HEAD = ['Target', 'URL', 'Signing key', ...HEALTH_HEAD];

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
      <p class="help page-intro">
        Webhook targets, with what they received in the last 24 hours. Slack, PagerDuty and e-mail alerts are
        under <a href={href(['alert-channels'])}>Alert channels</a>.
      </p>
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
                <HealthRow target={targetCalls('notifications', notification.id)} key={notification.id}>
                  <TargetCells notification={notification} />
                </HealthRow>
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
