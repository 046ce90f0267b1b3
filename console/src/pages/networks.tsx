import { DEFAULT_SYMBOL } from '../amounts';
import { api, read, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, OutcomeText, Pager, PageTitle, useAction, useLoad } from '../components';
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
                <NetworkPanel network={network} key={network.id} />
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
        {(network) => <NetworkPanel network={network} />}
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

function NetworkPanel({ network }: { network: Network }) {
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
      <NetworkAlert network={network} />
    </section>
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
