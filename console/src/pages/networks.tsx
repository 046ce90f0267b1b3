import { useState } from 'preact/hooks';
import { DEFAULT_SYMBOL } from '../amounts';
import { api, read, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, OutcomeText, Pager, PageTitle, useAction, useLoad } from '../components';
import { rpcBody, rpcPaths, rpcRows, RpcUrlsField, useFieldErrors, type RpcRow } from '../forms';
import { href, location, navigate } from '../router';
import { can } from '../session';
import { Amount, AmountField, useAmountField } from '../units';
import { pageOf } from './page-query';

type Network = Schemas['NetworkResponse'];

const PER_PAGE = 10;

/** `#/networks`: every network, a page at a time; `#/networks/<id>`: one (ids are `<type>:<name>`). */
export function NetworksPage({ segments }: { segments: string[] }) {
  return segments.length > 0 ? <NetworkPage id={segments[0]} /> : <NetworkList />;
}

function MaskingHelp() {
  return (
    <p class="help page-intro">
      RPC URLs are shown as the API answers them: masked, since they often carry a provider's key (no
      credentials; the last path segment and every query value read ***).
    </p>
  );
}

/** Every network, a page at a time (GET /api/v1/networks), each with its default balance alert. */
function NetworkList() {
  const page = pageOf(location.value.query);
  const [load, reload] = useLoad(
    () => readPage(api.GET('/api/v1/networks', { params: { query: { page, per_page: PER_PAGE } } })),
    [page],
  );
  return (
    <>
      <PageTitle>Networks</PageTitle>
      <MaskingHelp />
      <Loaded load={load} what="networks" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            <Empty>
              {pagination.total_items > 0 ? (
                <>
                  This page is past the last network. <a href={href(['networks'])}>Go to the first page</a>.
                </>
              ) : (
                'No networks. List them in the configuration file (docs/reference/networks-and-signers.md), then restart the service.'
              )}
            </Empty>
          ) : (
            <>
              {items.map((network) => (
                <NetworkPanel network={network} key={network.id} onChanged={reload} />
              ))}
              <Pager
                pagination={pagination}
                label="Networks"
                onPage={(next) => navigate(['networks'], { page: next })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/** One network (GET /api/v1/networks/{network_id}). */
function NetworkPage({ id }: { id: string }) {
  const [load, reload] = useLoad(
    () => read(api.GET('/api/v1/networks/{network_id}', { params: { path: { network_id: id } } })),
    [id],
  );
  return (
    <>
      <PageTitle>Network {id}</PageTitle>
      <p>
        <a href={href(['networks'])}>All networks</a>
      </p>
      <MaskingHelp />
      <Loaded load={load} what={`network ${id}`} retry={reload}>
        {(network) => <NetworkPanel network={network} onChanged={reload} />}
      </Loaded>
    </>
  );
}

function List({ items }: { items: readonly string[] }) {
  return (
    <ul class="plain">
      {items.map((item, i) => (
        <li key={i} class="mono">
          {item}
        </li>
      ))}
    </ul>
  );
}

function NetworkPanel({ network, onChanged }: { network: Network; onChanged: () => void }) {
  const heading = `network-${network.id}`;
  return (
    <section class="panel" aria-labelledby={heading}>
      <h2 id={heading}>
        <a href={href(['networks', network.id])}>{network.name}</a> <span class="muted id">{network.id}</span>
      </h2>
      <dl class="facts">
        <dt>Type</dt>
        <dd>{network.network_type}</dd>
        <dt>Testnet</dt>
        <dd>{network.is_testnet ? 'yes' : 'no'}</dd>
        {network.chain_id !== undefined && (
          <>
            <dt>Chain id</dt>
            <dd>{network.chain_id}</dd>
          </>
        )}
        {network.passphrase !== undefined && (
          <>
            <dt>Passphrase</dt>
            <dd>{network.passphrase}</dd>
          </>
        )}
        <dt>Symbol</dt>
        <dd>{network.symbol ?? <span class="muted">not set</span>}</dd>
        <dt>RPC URLs</dt>
        <dd>
          <ul class="plain">
            {network.rpc_urls.map((rpc, i) => (
              <li key={i}>
                <span class="mono">{rpc.url}</span> <span class="muted">(weight {rpc.weight})</span>
              </li>
            ))}
          </ul>
        </dd>
        {network.horizon_url !== undefined && (
          <>
            <dt>Horizon URL</dt>
            <dd class="mono">{network.horizon_url}</dd>
          </>
        )}
        {network.explorer_urls !== undefined && network.explorer_urls.length > 0 && (
          <>
            <dt>Explorers</dt>
            <dd>
              <List items={network.explorer_urls} />
            </dd>
          </>
        )}
        {network.average_blocktime_ms !== undefined && (
          <>
            <dt>Block time</dt>
            <dd>{network.average_blocktime_ms} ms</dd>
          </>
        )}
        {network.required_confirmations !== undefined && (
          <>
            <dt>Confirmations</dt>
            <dd>{network.required_confirmations}</dd>
          </>
        )}
        {network.features !== undefined && network.features.length > 0 && (
          <>
            <dt>Features</dt>
            <dd>{network.features.join(', ')}</dd>
          </>
        )}
        {network.tags !== undefined && network.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>{network.tags.join(', ')}</dd>
          </>
        )}
      </dl>
      {can('networks:write') && <RpcUrlsEdit network={network} onChanged={onChanged} />}
      <NetworkAlert network={network} />
    </section>
  );
}

/**
 * PATCH /api/v1/networks/{network_id} {rpc_urls}: the list replaced on every instance; masked URLs left
 * as read keep the URL stored behind them (docs/reference/networks-and-signers.md#43-changing-a-networks-rpc-list).
 */
function RpcUrlsEdit({ network, onChanged }: { network: Network; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const readRows = rpcRows(network.rpc_urls);
  const [rows, setRows] = useState<RpcRow[]>(readRows);
  const errors = useFieldErrors(rpcPaths('rpc_urls'));
  const [outcome, busy, act] = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const ok = await act(async () => {
      const urls = rpcBody(
        rows,
        readRows.map((row) => row.url),
        'rpc_urls',
      );
      if (!urls.ok) return errors.refuse(urls.problems);
      await errors.guard(() =>
        read(
          api.PATCH('/api/v1/networks/{network_id}', {
            params: { path: { network_id: network.id } },
            body: { rpc_urls: urls.urls },
          }),
        ),
      );
    }, `RPC URLs of ${network.name} saved: relayers without URLs of their own use them from their next check.`);
    if (ok) {
      setEditing(false);
      onChanged();
    }
  };
  if (!editing) {
    return (
      <>
        <div class="actions">
          <button
            type="button"
            onClick={() => {
              setRows(readRows);
              errors.clear();
              setEditing(true);
            }}
          >
            Edit RPC URLs<span class="visually-hidden"> of {network.name}</span>
          </button>
        </div>
        <OutcomeText outcome={outcome} />
      </>
    );
  }
  return (
    <form class="edit-form" aria-label={`RPC URLs of ${network.name}`} onSubmit={(event) => void save(event)}>
      <RpcUrlsField
        id={`rpc-${network.id}`}
        legend={`RPC URLs of ${network.name}`}
        path="rpc_urls"
        rows={rows}
        onRows={setRows}
        errors={errors}
        empty="At least one."
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Save RPC URLs
        </button>
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      <OutcomeText outcome={outcome?.kind === 'error' ? outcome : null} />
    </form>
  );
}

/**
 * The network's default balance alert (GET /api/v1/networks/{network_id}/balance-alert); with
 * networks:write, set (typed in native units) or remove it (docs/reference/balance-alerts.md#11-a-networks-default).
 */
function NetworkAlert({ network }: { network: Network }) {
  const path = { params: { path: { network_id: network.id } } };
  const [load, reload] = useLoad(
    () => read(api.GET('/api/v1/networks/{network_id}/balance-alert', path)),
    [network.id],
  );
  const [outcome, busy, act] = useAction();
  const symbol = network.symbol ?? DEFAULT_SYMBOL[network.network_type];
  const field = useAmountField(network.network_type, symbol);
  const writable = can('networks:write');
  const set = async (event: Event) => {
    event.preventDefault();
    const ok = await act(
      () =>
        field.submit((threshold) =>
          read(api.PUT('/api/v1/networks/{network_id}/balance-alert', { ...path, body: { threshold } })),
        ),
      `Default alert threshold of ${network.name} set.`,
    );
    if (ok) {
      field.clear();
      reload();
    }
  };
  const remove = async () => {
    const ok = await act(
      () => read(api.DELETE('/api/v1/networks/{network_id}/balance-alert', path)),
      `Default alert threshold of ${network.name} removed.`,
    );
    if (ok) reload();
  };
  return (
    <div class="network-alert">
      <h3>Balance alert</h3>
      <Loaded load={load} what={`the balance alert of ${network.name}`} retry={reload}>
        {(rule) =>
          rule.threshold === null ? (
            <p class="alert-rule">
              No default threshold: relayers on this network alert only with a threshold of their own.
            </p>
          ) : (
            <p class="alert-rule">
              Relayers on this network without a rule of their own alert below{' '}
              <Amount base={rule.threshold} networkType={network.network_type} symbol={symbol} />.
            </p>
          )
        }
      </Loaded>
      {writable && (
        <form
          class="actions"
          onSubmit={(event) => void set(event)}
          aria-label={`Default alert threshold of ${network.name}`}
        >
          <AmountField
            id={`threshold-${network.id}`}
            label="New threshold"
            field={field}
            networkType={network.network_type}
            symbol={symbol}
          />
          <button type="submit" class="primary" disabled={busy}>
            Set threshold
          </button>
          {load.state === 'ready' && load.data.threshold !== null && (
            <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
              Remove threshold
            </button>
          )}
        </form>
      )}
      {writable && <OutcomeText outcome={outcome} />}
    </div>
  );
}
