import { api, readPage } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, Table, useLoad } from '../components';
import { href, location, navigate } from '../router';
import { can } from '../session';
import { targetCalls } from '../target-calls';
import { AlertChannelPage } from './alert-channel';
import { ChannelCreate } from './alert-channel-forms';
import { ChannelRelayers, eventsText, TYPE_LABEL, whereOf, type Channel } from './alert-channel-parts';
import { HEALTH_HEAD, HealthRow } from './notification-parts';
import { pageOf } from './page-query';

const PER_PAGE = 25;

const HEAD = ['Channel', 'Type', 'Sends to', 'Events', 'Relayers', ...HEALTH_HEAD];

/** `#/alert-channels` is the list; `#/alert-channels/<id>` a channel's own page. */
export function AlertChannelsSection({ segments }: { segments: string[] }) {
  const [id] = segments;
  return id === undefined ? <AlertChannelsPage /> : <AlertChannelPage id={id} key={id} />;
}

/**
 * Every alert channel, a page at a time (GET /api/v1/alert-channels), each with what it hears and its
 * state and 24h stats, as the notification targets' list shows theirs.
 */
export function AlertChannelsPage() {
  const page = pageOf(location.value.query);
  const [load, reload] = useLoad(
    () => readPage(api.GET('/api/v1/alert-channels', { params: { query: { page, per_page: PER_PAGE } } })),
    [page],
    true,
  );
  return (
    <>
      <PageTitle>Alert channels</PageTitle>
      <p class="help page-intro">
        Slack, PagerDuty and e-mail: alerts for people, with what each channel received in the last 24 hours.
        Webhook targets are under <a href={href(['notifications'])}>Notifications</a>.
      </p>
      {can('notifications:write') && <ChannelCreate />}
      <Loaded load={load} what="alert channels" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            <Empty>
              No alert channels yet. Add one with POST /api/v1/alert-channels
              (docs/reference/alert-channels.md): a Slack webhook URL, a PagerDuty routing key or e-mail
              recipients, hearing every relayer or some.
            </Empty>
          ) : (
            <>
              <Table caption="Alert channels" head={HEAD}>
                {items.map((channel) => (
                  <HealthRow target={targetCalls('alert-channels', channel.id)} key={channel.id}>
                    <ChannelCells channel={channel} />
                  </HealthRow>
                ))}
              </Table>
              <Pager
                pagination={pagination}
                label="Alert channels"
                onPage={(next) => navigate(['alert-channels'], { page: next })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

function ChannelCells({ channel }: { channel: Channel }) {
  return (
    <>
      <th scope="row">
        <a href={href(['alert-channels', channel.id])}>{channel.id}</a>
      </th>
      <td>{TYPE_LABEL[channel.type]}</td>
      <td class="mono">{whereOf(channel)}</td>
      <td>{eventsText(channel.events)}</td>
      <td>
        <ChannelRelayers ids={channel.relayer_ids} />
      </td>
    </>
  );
}
