import { useState } from 'preact/hooks';
import { api, read, readCursorPage, type Relayer, type Schemas } from '../api/client';
import { CursorPager, Empty, Loaded, Table, Time, useLoad } from '../components';
import { href } from '../router';
import { can } from '../session';
import { NextAttempt } from './notification-parts';

type Delivery = Schemas['RelayerDeliveryResponse'];

const PER_PAGE = 10;

/**
 * A relayer's webhook deliveries to every target that hears it, its own and those subscribed to it
 * (GET /api/v1/relayers/{id}/deliveries, docs/reference/webhooks.md#312-the-deliveries-of-one-relayer),
 * each with the target it goes to.
 */
export function DeliveriesPanel({ relayer, round }: { relayer: Relayer; round: number }) {
  return (
    <section class="panel" aria-labelledby="relayer-deliveries">
      <h2 id="relayer-deliveries">Webhook deliveries</h2>
      {can('notifications:read') ? (
        <DeliveriesTable relayerId={relayer.id} round={round} />
      ) : (
        <p class="muted">
          Hidden: reading deliveries needs the notifications:read permission, which this key lacks.
        </p>
      )}
    </section>
  );
}

function DeliveriesTable({ relayerId, round }: { relayerId: string; round: number }) {
  // By cursor: null for the newest page (docs/reference/pagination.md#17-cursors).
  const [cursor, setCursor] = useState<string | null>(null);
  const [load, reload] = useLoad(
    async () => {
      const deliveries = await readCursorPage(
        api.GET('/api/v1/relayers/{relayer_id}/deliveries', {
          params: {
            path: { relayer_id: relayerId },
            query: { limit: PER_PAGE, ...(cursor === null ? {} : { cursor }) },
          },
        }),
      );
      // Whether a target is paused matters to its pending deliveries only: asked for those targets only.
      const waiting = [
        ...new Set(deliveries.items.filter((d) => d.status === 'pending').map((d) => d.notification_id)),
      ];
      const states = await Promise.all(
        waiting.map((id) =>
          read(
            api.GET('/api/v1/notifications/{notification_id}/state', {
              params: { path: { notification_id: id } },
            }),
          ),
        ),
      );
      const paused = new Set(waiting.filter((_, i) => states[i].paused));
      return { ...deliveries, paused };
    },
    [relayerId, cursor, round],
    true,
  );
  return (
    <Loaded load={load} what="its deliveries" retry={reload}>
      {({ items, nextCursor, paused }) =>
        items.length === 0 ? (
          <Empty>
            No deliveries of its events yet: its own notification target and every target subscribed to it are
            sent each of its events as it happens.
          </Empty>
        ) : (
          <>
            <Table
              caption="Deliveries of its events, to every target that hears it"
              head={[
                'Created',
                'Target',
                'Event',
                'Status',
                'Attempts',
                'Last answer',
                'Delivered or next attempt',
              ]}
            >
              {items.map((delivery) => (
                <DeliveryRow
                  delivery={delivery}
                  paused={paused.has(delivery.notification_id)}
                  key={delivery.id}
                />
              ))}
            </Table>
            <CursorPager
              label="Deliveries"
              atNewest={cursor === null}
              nextCursor={nextCursor}
              onNewest={() => setCursor(null)}
              onOlder={setCursor}
            />
          </>
        )
      }
    </Loaded>
  );
}

function DeliveryRow({ delivery, paused }: { delivery: Delivery; paused: boolean }) {
  return (
    <tr>
      <th scope="row">
        <Time value={delivery.created_at} />
      </th>
      <td>
        <a class="id" href={href(['notifications', delivery.notification_id])}>
          {delivery.notification_id}
        </a>
      </td>
      <td class="mono">{delivery.event}</td>
      <td>
        <span class={`badge ${delivery.status}`}>{delivery.status}</span>
      </td>
      <td>{delivery.attempts}</td>
      <td>
        <LastAnswer code={delivery.last_status_code} error={delivery.last_error} />
      </td>
      <td>
        {delivery.status === 'pending' ? (
          <NextAttempt at={delivery.next_attempt_at} paused={paused} />
        ) : (
          <Time value={delivery.delivered_at} />
        )}
      </td>
    </tr>
  );
}

/** The status of a delivery's last attempt, with its error only where it says more (`HTTP 503` says nothing more). */
function LastAnswer({ code, error }: { code: number | null; error: string | null }) {
  if (code === null) return error === null ? <span class="muted">none yet</span> : <>{error}</>;
  const status = `HTTP ${code}`;
  return (
    <>
      <span class="mono">{status}</span>
      {error !== null && error !== status && `: ${error}`}
    </>
  );
}
