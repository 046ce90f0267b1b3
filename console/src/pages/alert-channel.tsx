import { useMemo } from 'preact/hooks';
import { api, read } from '../api/client';
import { ErrorState, Loading, PageTitle, useLoad } from '../components';
import { href } from '../router';
import { can } from '../session';
import { targetCalls } from '../target-calls';
import { ChannelEdit } from './alert-channel-forms';
import { ChannelRelayers, ConfigFacts, eventsText, TYPE_LABEL, whereOf } from './alert-channel-parts';
import { TargetPanels } from './target-panels';

/**
 * One alert channel: what it is (its secrets as the API masks them) and what it hears, then the
 * machinery it shares with webhook targets: state, stats, charts, deliveries, with their actions.
 */
export function AlertChannelPage({ id }: { id: string }) {
  const [load, reload] = useLoad(
    () => read(api.GET('/api/v1/alert-channels/{channel_id}', { params: { path: { channel_id: id } } })),
    [id],
    true,
  );
  const target = useMemo(() => targetCalls('alert-channels', id), [id]);
  return (
    <>
      <PageTitle>Alert channel {id}</PageTitle>
      <p>
        <a href={href(['alert-channels'])}>All alert channels</a>
      </p>
      {load.state === 'loading' ? (
        <Loading what="the alert channel" />
      ) : load.state === 'error' ? (
        <ErrorState
          error={load.error}
          what="the alert channel"
          retry={load.error.status === 404 ? undefined : reload}
        />
      ) : (
        <>
          <dl class="facts">
            <dt>Id</dt>
            <dd class="mono">{load.data.id}</dd>
            <dt>Type</dt>
            <dd>{TYPE_LABEL[load.data.type]}</dd>
            <ConfigFacts channel={load.data} />
            <dt>Events</dt>
            <dd>{eventsText(load.data.events)}</dd>
            <dt>Relayers</dt>
            <dd>
              <ChannelRelayers ids={load.data.relayer_ids} />
            </dd>
          </dl>
          {can('notifications:write') && <ChannelEdit channel={load.data} onChanged={reload} />}
          <TargetPanels target={target} where={whereOf(load.data)} />
        </>
      )}
    </>
  );
}
