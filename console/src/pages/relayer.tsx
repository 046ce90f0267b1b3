import { AuditChange } from '../audit-change';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, read, readCursorPage, readWithTag, type Relayer, type Schemas } from '../api/client';
import {
  CursorPager,
  Empty,
  ErrorState,
  Loaded,
  Loading,
  OutcomeText,
  PageTitle,
  isPassingFailure,
  StateBadges,
  Table,
  Time,
  useAction,
  useLoad,
  type Load,
} from '../components';
import { balanceRead } from '../format';
import { liveReadEnded, liveReadFailed, useLive } from '../live';
import { useSymbols } from '../networks';
import { href, navigate } from '../router';
import { can } from '../session';
import { Amount, AmountField, useAmountField } from '../units';
import { DeliveriesPanel } from './relayer-deliveries';
import { BalanceHistoryPanel } from './relayer-history';
import { pauseEffect, RelayerEdit, type TaggedRelayer } from './relayer-form';
import { ConfirmDialog } from '../dialog';

type Status = Schemas['RelayerStatusResponse'];
type BalanceAlert = Schemas['BalanceAlertResponse'];
type AuditRecord = Schemas['AuditEventResponse'];

const PER_PAGE = 10;

/**
 * The relayer with the ETag of its GET (docs/reference/safe-writes.md); `refresh` reads it again in
 * place, as every live round does (useLive).
 */
function useRelayer(id: string): [Load<TaggedRelayer>, () => Promise<void>] {
  const [load, setLoad] = useState<Load<TaggedRelayer>>({ state: 'loading' });
  const current = useRef(id);
  current.current = id;
  const shown = useRef(load);
  shown.current = load;
  const tick = useLive();
  const refresh = useCallback(async () => {
    const of = tick;
    try {
      const tagged = await readWithTag(
        api.GET('/api/v1/relayers/{relayer_id}', { params: { path: { relayer_id: id } } }),
      );
      if (current.current !== id) return;
      setLoad({ state: 'ready', data: tagged });
      liveReadEnded(of, null);
    } catch (error) {
      if (current.current !== id) return;
      const failure = error instanceof ApiError ? error : new ApiError(0, String(error));
      if (shown.current.state === 'ready' && isPassingFailure(failure)) liveReadEnded(of, failure.message);
      else {
        setLoad({ state: 'error', error: failure });
        liveReadFailed();
      }
    }
  }, [id, tick]);
  const loaded = useRef<string | null>(null);
  useEffect(() => {
    if (loaded.current !== id) setLoad({ state: 'loading' });
    loaded.current = id;
    void refresh();
  }, [id, tick]);
  return [load, refresh];
}

/** One relayer: what it is, its last check, its alert, its deliveries and its audit trail. */
export function RelayerPage({ id }: { id: string }) {
  const [load, refresh] = useRelayer(id);
  const symbolOf = useSymbols();
  // Bumped by every action: the deliveries and the audit trail are read again after a change.
  const [round, setRound] = useState(0);
  const changed = useCallback(async () => {
    setRound((n) => n + 1);
    await refresh();
  }, [refresh]);
  if (load.state === 'loading') {
    return (
      <>
        <PageTitle>Relayer</PageTitle>
        <Loading what="the relayer" />
      </>
    );
  }
  if (load.state === 'error') {
    if (load.error.status === 404) {
      return (
        <>
          <PageTitle>Relayer not found</PageTitle>
          <div class="state empty">
            <p>No relayer {id}: it does not exist or this key may not see it.</p>
            <p>
              <a href={href(['relayers'])}>Back to the relayers</a>
            </p>
          </div>
        </>
      );
    }
    return (
      <>
        <PageTitle>Relayer</PageTitle>
        <ErrorState error={load.error} what="the relayer" retry={() => void refresh()} />
      </>
    );
  }
  const relayer = load.data.data;
  const symbol = symbolOf(relayer.network_type, relayer.network);
  return (
    <>
      <p class="crumbs">
        <a href={href(['relayers'])}>Relayers</a> /
      </p>
      <PageTitle>{relayer.name}</PageTitle>
      <RelayerFacts relayer={relayer} etag={load.data.etag} symbol={symbol} refresh={changed} />
      <StatusPanel relayer={relayer} symbol={symbol} refresh={changed} />
      <AlertPanel relayer={relayer} symbol={symbol} refresh={changed} />
      <BalanceHistoryPanel relayer={relayer} symbol={symbol} round={round} />
      <DeliveriesPanel relayer={relayer} round={round} />
      <AuditPanel relayer={relayer} round={round} />
    </>
  );
}

function RelayerFacts({
  relayer,
  etag,
  symbol,
  refresh,
}: {
  relayer: Relayer;
  etag: string | null;
  symbol: string;
  refresh: () => Promise<void>;
}) {
  const [outcome, busy, act] = useAction();
  const [asking, setAsking] = useState<'pause' | 'delete' | null>(null);
  // The relayer as the edit form read it, with its ETag; `round` starts the form over.
  const [editing, setEditing] = useState<{ read: TaggedRelayer; round: number } | null>(null);
  const ifMatch = etag === null ? undefined : { 'If-Match': etag };
  /** A 412: the relayer changed since this page read it; it is read again. */
  const unlessChanged = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        await refresh();
        throw new ApiError(
          412,
          'Nothing changed: the relayer was changed elsewhere since this page read it (Precondition Failed). ' +
            'It has been read again: check it, then try again.',
        );
      }
      throw error;
    }
  };
  const pauseOrResume = () =>
    act(
      async () => {
        await unlessChanged(() =>
          read(
            api.PATCH('/api/v1/relayers/{relayer_id}', {
              params: { path: { relayer_id: relayer.id }, header: ifMatch },
              body: { paused: !relayer.paused },
            }),
          ),
        );
        await refresh();
      },
      relayer.paused ? 'Resumed: the relayer takes work again.' : 'Paused: the relayer takes no work.',
    );
  const remove = async () => {
    const ok = await act(
      () =>
        unlessChanged(() =>
          read(
            api.DELETE('/api/v1/relayers/{relayer_id}', {
              params: { path: { relayer_id: relayer.id }, header: ifMatch },
            }),
          ),
        ),
      'Deleted.',
    );
    if (ok) navigate(['relayers']);
  };
  const readAgain = async () => {
    const tagged = await readWithTag(
      api.GET('/api/v1/relayers/{relayer_id}', { params: { path: { relayer_id: relayer.id } } }),
    );
    setEditing((current) => ({ read: tagged, round: (current?.round ?? 0) + 1 }));
    await refresh();
  };
  return (
    <section class="panel" aria-labelledby="relayer-facts">
      <h2 id="relayer-facts">Relayer</h2>
      <dl class="facts">
        <dt>State</dt>
        <dd>
          <StateBadges relayer={relayer} />
          {relayer.disabled_reason && (
            <div class="reason">
              {relayer.disabled_reason.type}: {relayer.disabled_reason.details}
            </div>
          )}
        </dd>
        <dt>Id</dt>
        <dd class="id">{relayer.id}</dd>
        <dt>Network</dt>
        <dd>{relayer.network}</dd>
        <dt>Network type</dt>
        <dd>{relayer.network_type}</dd>
        <dt>Address</dt>
        <dd class="mono">{relayer.address}</dd>
        <dt>Signer</dt>
        <dd class="id">{relayer.signer_id}</dd>
        <dt>Notification target</dt>
        <dd>
          {relayer.notification_id === null ? (
            <span class="muted">none</span>
          ) : can('notifications:read') ? (
            <a class="id" href={href(['notifications', relayer.notification_id])}>
              {relayer.notification_id}
            </a>
          ) : (
            <span class="id">{relayer.notification_id}</span>
          )}
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={relayer.created_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time value={relayer.updated_at} />
        </dd>
      </dl>
      {relayer.system_disabled && (
        <p class="help">
          Its health check disabled it; only a check that passes enables it again. Repair the cause above (its
          RPC URLs, its balance or its policies), then check it now.
        </p>
      )}
      {can('relayers:write') && (
        <>
          <div class="actions">
            <button
              type="button"
              class={relayer.paused ? 'primary' : undefined}
              disabled={busy}
              onClick={() => (relayer.paused ? void pauseOrResume() : setAsking('pause'))}
            >
              {relayer.paused ? 'Resume' : 'Pause'}
            </button>
            <button
              type="button"
              disabled={busy || editing !== null}
              onClick={() => setEditing({ read: { data: relayer, etag }, round: 0 })}
            >
              Edit
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => setAsking('delete')}>
              Delete
            </button>
          </div>
          <OutcomeText outcome={outcome} />
          {editing !== null && (
            <RelayerEdit
              key={editing.round}
              read={editing.read}
              symbol={symbol}
              onReload={readAgain}
              onSaved={async () => {
                setEditing(null);
                await act(refresh, 'Saved.');
              }}
              onCancel={() => setEditing(null)}
            />
          )}
          {asking === 'pause' && (
            <ConfirmDialog
              title={`Pause relayer ${relayer.name}?`}
              confirm={`Pause ${relayer.name}`}
              onConfirm={pauseOrResume}
              onClose={() => setAsking(null)}
            >
              <p>{pauseEffect(relayer)}</p>
            </ConfirmDialog>
          )}
          {asking === 'delete' && (
            <ConfirmDialog
              title={`Delete relayer ${relayer.name}?`}
              confirm={`Delete ${relayer.name}`}
              onConfirm={remove}
              onClose={() => setAsking(null)}
            >
              <p>
                Relayer {relayer.id} on {relayer.network} ({relayer.network_type}) is deleted: it is no longer
                checked, its signer {relayer.signer_id} is free again on this network, and the targets that
                hear it receive relayer_deleted. This cannot be undone.
              </p>
            </ConfirmDialog>
          )}
        </>
      )}
    </section>
  );
}

function StatusPanel({
  relayer,
  symbol,
  refresh,
}: {
  relayer: Relayer;
  symbol: string;
  refresh: () => Promise<void>;
}) {
  const [load, reload] = useLoad(
    () =>
      read(api.GET('/api/v1/relayers/{relayer_id}/status', { params: { path: { relayer_id: relayer.id } } })),
    [relayer.id],
    true,
  );
  // What the check answered, shown until the status read after it (over: the load it replaces).
  const [checked, setChecked] = useState<{ data: Status; over: Load<Status> } | null>(null);
  const [outcome, busy, act] = useAction();
  const checkNow = () =>
    act(async () => {
      const status = await read(
        api.POST('/api/v1/relayers/{relayer_id}/check', { params: { path: { relayer_id: relayer.id } } }),
      );
      setChecked({ data: status, over: load });
      reload();
      await refresh();
    }, 'Checked: the status below is what this check found.');
  const shown: Load<Status> =
    checked !== null && checked.over === load ? { state: 'ready', data: checked.data } : load;
  return (
    <section class="panel" aria-labelledby="relayer-status">
      <h2 id="relayer-status">Status</h2>
      <Loaded load={shown} what="its status" retry={reload}>
        {(status) => <StatusFacts status={status} relayer={relayer} symbol={symbol} />}
      </Loaded>
      {can('relayers:write') && (
        <>
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => void checkNow()}>
              {busy ? 'Checking…' : 'Check now'}
            </button>
          </div>
          <OutcomeText outcome={outcome} />
        </>
      )}
    </section>
  );
}

function StatusFacts({ status, relayer, symbol }: { status: Status; relayer: Relayer; symbol: string }) {
  const networkType = relayer.network_type;
  if (status.checked_at === null) {
    return (
      <p class="state empty">
        Never checked: the service checks it on its schedule
        {can('relayers:write') ? ', or now with Check now.' : '.'}
      </p>
    );
  }
  return (
    <dl class="facts">
      <dt>Balance</dt>
      <dd>
        {balanceRead(status, relayer) ? (
          <Amount base={status.balance} networkType={networkType} symbol={symbol} />
        ) : (
          <>
            unknown <span class="muted">(its last check could not read it: see the reason above)</span>
          </>
        )}
      </dd>
      <dt>Low balance</dt>
      <dd>
        {status.low_balance === null ? (
          <span class="muted">not compared (no alert threshold, or none since it was set)</span>
        ) : status.low_balance ? (
          <span class="badge low">Low: below its alert threshold</span>
        ) : (
          <span class="badge ok">No: at or above its alert threshold</span>
        )}
      </dd>
      {status.nonce !== undefined && (
        <>
          <dt>Nonce</dt>
          <dd class="mono">{status.nonce}</dd>
        </>
      )}
      {status.sequence_number !== undefined && (
        <>
          <dt>Sequence number</dt>
          <dd class="mono">{status.sequence_number}</dd>
        </>
      )}
      <dt>Pending transactions</dt>
      <dd>{status.pending_transactions_count}</dd>
      <dt>Last confirmed</dt>
      <dd>
        <Time value={status.last_confirmed_transaction_timestamp} />
      </dd>
      <dt>Checked</dt>
      <dd>
        <Time value={status.checked_at} />
      </dd>
    </dl>
  );
}

const SOURCE_TEXT: Record<string, string> = {
  relayer: 'its own rule',
  network: "its network's default",
};

function AlertPanel({
  relayer,
  symbol,
  refresh,
}: {
  relayer: Relayer;
  symbol: string;
  refresh: () => Promise<void>;
}) {
  const [load, reload] = useLoad(
    () =>
      read(
        api.GET('/api/v1/relayers/{relayer_id}/balance-alert', {
          params: { path: { relayer_id: relayer.id } },
        }),
      ),
    [relayer.id],
    true,
  );
  // What a change answered, shown until the rule read after it (over: the load it replaces).
  const [changed, setChanged] = useState<{ data: BalanceAlert; over: Load<BalanceAlert> } | null>(null);
  const field = useAmountField(relayer.network_type, symbol);
  const [outcome, busy, act] = useAction();
  const path = { relayer_id: relayer.id };
  const answered = async (answer: Promise<BalanceAlert>) => {
    setChanged({ data: await answer, over: load });
    reload();
    await refresh();
  };
  const put = (value: string | null) =>
    answered(
      read(
        api.PUT('/api/v1/relayers/{relayer_id}/balance-alert', {
          params: { path },
          body: { threshold: value },
        }),
      ),
    );
  const remove = () =>
    act(
      () => answered(read(api.DELETE('/api/v1/relayers/{relayer_id}/balance-alert', { params: { path } }))),
      'Its own rule is removed: its network’s default applies, if any.',
    );
  const shown: Load<BalanceAlert> =
    changed !== null && changed.over === load ? { state: 'ready', data: changed.data } : load;
  return (
    <section class="panel" aria-labelledby="relayer-alert">
      <h2 id="relayer-alert">Balance alert</h2>
      <Loaded load={shown} what="its balance alert" retry={reload}>
        {(alert) => (
          <>
            <p class="alert-rule">
              {alert.threshold === null ? (
                alert.source === 'relayer' ? (
                  'No alert: its own rule says no alert for this relayer, whatever its network says.'
                ) : (
                  'No alert: neither this relayer nor its network has a threshold.'
                )
              ) : (
                <>
                  Alert below{' '}
                  <Amount base={alert.threshold} networkType={relayer.network_type} symbol={symbol} />, from{' '}
                  {SOURCE_TEXT[alert.source ?? ''] ?? 'no rule'}.
                </>
              )}
            </p>
            {can('relayers:write') && (
              <form
                class="alert-form"
                aria-label="Change the balance alert"
                onSubmit={(event) => {
                  event.preventDefault();
                  void act(async () => {
                    await field.submit(put);
                    field.clear();
                  }, 'Threshold set: the next check compares the balance with it.');
                }}
              >
                <AmountField
                  id="relayer-threshold"
                  label="Threshold"
                  field={field}
                  networkType={relayer.network_type}
                  symbol={symbol}
                />
                <div class="actions">
                  <button type="submit" class="primary" disabled={busy}>
                    Set threshold
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => void act(() => put(null), 'Set: no alert for this relayer.')}
                  >
                    No alert for this relayer
                  </button>
                  {alert.source === 'relayer' && (
                    <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
                      Remove its own rule
                    </button>
                  )}
                </div>
              </form>
            )}
          </>
        )}
      </Loaded>
      {can('relayers:write') && <OutcomeText outcome={outcome} />}
    </section>
  );
}

function AuditPanel({ relayer, round }: { relayer: Relayer; round: number }) {
  return (
    <section class="panel" aria-labelledby="relayer-audit">
      <h2 id="relayer-audit">Audit trail</h2>
      {can('audit:read') ? (
        <AuditTable relayerId={relayer.id} round={round} />
      ) : (
        <p class="muted">
          Hidden: reading the audit trail needs the audit:read permission, which this key lacks.
        </p>
      )}
    </section>
  );
}

function AuditTable({ relayerId, round }: { relayerId: string; round: number }) {
  // By cursor: null for the newest page (docs/reference/pagination.md#17-cursors).
  const [cursor, setCursor] = useState<string | null>(null);
  const [load, reload] = useLoad(
    () =>
      readCursorPage(
        api.GET('/api/v1/audit', {
          params: {
            query: {
              resource_type: 'relayer',
              resource_id: relayerId,
              limit: PER_PAGE,
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    [relayerId, cursor, round],
    true,
  );
  return (
    <Loaded load={load} what="its audit trail" retry={reload}>
      {({ items, nextCursor }) =>
        items.length === 0 ? (
          <Empty>No change of this relayer is recorded (records are kept 90 days).</Empty>
        ) : (
          <>
            <Table caption="Changes of this relayer" head={['When', 'Actor', 'Action', 'Change']}>
              {items.map((record) => (
                <AuditRow record={record} key={record.id} />
              ))}
            </Table>
            <CursorPager
              label="Audit records"
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

function AuditRow({ record }: { record: AuditRecord }) {
  return (
    <tr>
      <th scope="row">
        <Time value={record.at} />
      </th>
      <td>
        {record.actor.name} <span class="muted">({record.actor.type})</span>
      </td>
      <td class="mono">{record.action}</td>
      <td>
        <AuditChange before={record.before} after={record.after} />
      </td>
    </tr>
  );
}
