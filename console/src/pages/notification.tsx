import { useMemo, useState } from 'preact/hooks';
import { api, read } from '../api/client';
import { ErrorState, Loaded, Loading, OutcomeText, PageTitle, useLoad, type Outcome } from '../components';
import { href } from '../router';
import { can } from '../session';
import { targetCalls } from '../target-calls';
import { RelayerList } from './notification-parts';
import { SubscriptionForm, TargetEdit } from './notification-forms';
import { TargetPanels } from './target-panels';

/** One webhook target: what it is, its state, stats, subscription and delivery log, with its actions. */
export function NotificationPage({ id }: { id: string }) {
  const path = { params: { path: { notification_id: id } } };
  const [load, reload] = useLoad(
    () => read(api.GET('/api/v1/notifications/{notification_id}', path)),
    [id],
    true,
  );
  const target = useMemo(() => targetCalls('notifications', id), [id]);
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
          <TargetPanels target={target} where={load.data.url}>
            <SubscriptionPanel id={id} />
          </TargetPanels>
        </>
      )}
    </>
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
