import { Address } from '../address';
import { api, read, readPage, type Relayer } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, StateBadges, Table, Time, useLoad } from '../components';
import { balanceRead, STATE_FILTER_LABEL, STATE_FILTERS, type StateFilter } from '../format';
import { readNetworks, useSymbols } from '../networks';
import { href, location, navigate } from '../router';
import { can } from '../session';
import { Amount } from '../units';
import { AttentionStrip } from './attention';

const PER_PAGE = 25;
const NETWORK_TYPES = ['evm', 'solana', 'stellar'] as const;
type NetworkType = (typeof NETWORK_TYPES)[number];

interface Filters {
  network_type?: NetworkType;
  network?: string;
  state?: StateFilter;
  page: number;
}

function filtersOf(query: URLSearchParams): Filters {
  const type = query.get('network_type');
  const state = query.get('state');
  const page = Number(query.get('page'));
  return {
    network_type: NETWORK_TYPES.find((t) => t === type),
    network: query.get('network') || undefined,
    state: STATE_FILTERS.find((s) => s === state),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Every relayer the key may see, a page at a time, filtered by the API (GET /api/v1/relayers). */
export function RelayersPage() {
  const filters = filtersOf(location.value.query);
  const [load, reload] = useLoad(
    () =>
      readPage(
        api.GET('/api/v1/relayers', {
          params: {
            query: {
              page: filters.page,
              per_page: PER_PAGE,
              network_type: filters.network_type,
              network: filters.network,
              // Paused: every paused relayer, the ones the system disabled too (contract 24.1), which the
              // API's state=paused leaves out (docs/reference/relayers.md#33-filtering-the-list).
              ...(filters.state === 'paused' ? { paused: 'true' as const } : { state: filters.state }),
            },
          },
        }),
      ),
    [filters.page, filters.network_type, filters.network, filters.state],
    true,
  );
  const symbolOf = useSymbols();
  const show = (change: Partial<Filters>) =>
    navigate(['relayers'], { ...filters, page: undefined, ...change });
  const filtered =
    filters.network_type !== undefined || filters.network !== undefined || filters.state !== undefined;
  return (
    <>
      <PageTitle>Relayers</PageTitle>
      <AttentionStrip current={filtered ? filters.state : 'all'} />
      <form class="filters" aria-label="Filter relayers" onSubmit={(event) => event.preventDefault()}>
        <label>
          Network type
          <select
            value={filters.network_type ?? ''}
            onChange={(event) => {
              const type = NETWORK_TYPES.find((t) => t === event.currentTarget.value);
              // A network of another type would find nothing: it is not among the new type's choices.
              show({ network_type: type, network: type === undefined ? filters.network : undefined });
            }}
          >
            <option value="">Any</option>
            {NETWORK_TYPES.map((t) => (
              <option value={t} key={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <NetworkFilter
          type={filters.network_type}
          value={filters.network}
          onChange={(network) => show({ network })}
        />
        <label>
          State
          <select
            value={filters.state ?? ''}
            onChange={(event) => show({ state: STATE_FILTERS.find((s) => s === event.currentTarget.value) })}
          >
            <option value="">Any</option>
            {STATE_FILTERS.map((s) => (
              <option value={s} key={s}>
                {STATE_FILTER_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button type="button" onClick={() => navigate(['relayers'])}>
            Clear filters
          </button>
        )}
      </form>
      <Loaded load={load} what="relayers" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            <Empty>
              {filtered
                ? 'No relayer matches these filters. Clear them to see every relayer.'
                : 'No relayers yet. Create one with POST /api/v1/relayers or list them in the configuration file (docs/configuration.md).'}
            </Empty>
          ) : (
            <>
              <Table
                caption={`Relayers${filtered ? ' (filtered)' : ''}`}
                head={['Relayer', 'Address', 'Network', 'State', 'Balance', 'Alert below', 'Last check']}
              >
                {items.map((relayer) => (
                  <RelayerRow
                    relayer={relayer}
                    symbol={symbolOf(relayer.network_type, relayer.network)}
                    key={relayer.id}
                  />
                ))}
              </Table>
              <Pager
                pagination={pagination}
                label="Relayers"
                onPage={(page) => navigate(['relayers'], { ...filters, page })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/**
 * The networks the key may read, of the chosen network type (any without one), as choices; a text
 * field for a key without networks:read.
 */
function NetworkFilter({
  type,
  value,
  onChange,
}: {
  type?: NetworkType;
  value?: string;
  onChange: (network?: string) => void;
}) {
  const [load] = useLoad(() => (can('networks:read') ? readNetworks() : Promise.resolve(null)), []);
  const names =
    load.state === 'ready' && load.data !== null
      ? load.data.filter((n) => type === undefined || n.network_type === type).map((n) => n.name)
      : null;
  if (names === null) {
    return (
      <label>
        Network
        <input
          type="text"
          value={value ?? ''}
          placeholder="Any"
          onChange={(event) => onChange(event.currentTarget.value.trim() || undefined)}
        />
      </label>
    );
  }
  return (
    <label>
      Network
      <select value={value ?? ''} onChange={(event) => onChange(event.currentTarget.value || undefined)}>
        <option value="">Any</option>
        {[...new Set(names)].sort().map((name) => (
          <option value={name} key={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A relayer with its last check (status) and the threshold that applies to it. */
function RelayerRow({ relayer, symbol }: { relayer: Relayer; symbol: string }) {
  const [status] = useLoad(
    () =>
      Promise.all([
        read(
          api.GET('/api/v1/relayers/{relayer_id}/status', { params: { path: { relayer_id: relayer.id } } }),
        ),
        read(
          api.GET('/api/v1/relayers/{relayer_id}/balance-alert', {
            params: { path: { relayer_id: relayer.id } },
          }),
        ),
      ]),
    [relayer.id],
    true,
  );
  return (
    <tr>
      <th scope="row">
        <a href={href(['relayers', relayer.id])}>{relayer.name}</a>
        <div class="muted id">{relayer.id}</div>
      </th>
      <td>
        <Address value={relayer.address} of={relayer.name} />
      </td>
      <td>
        {relayer.network} <span class="muted">({relayer.network_type})</span>
      </td>
      <td>
        <StateBadges relayer={relayer} />
        {relayer.disabled_reason && (
          <div class="reason">
            {relayer.disabled_reason.type}: {relayer.disabled_reason.details}
          </div>
        )}
      </td>
      {status.state === 'ready' ? (
        <>
          <td>
            {!balanceRead(status.data[0], relayer) ? (
              <span
                class="muted"
                title={
                  status.data[0].checked_at === null
                    ? 'Never checked'
                    : 'Its last check could not read the balance'
                }
              >
                unknown
              </span>
            ) : (
              <Amount base={status.data[0].balance} networkType={relayer.network_type} symbol={symbol} />
            )}
            {status.data[0].low_balance === true && <span class="badge low">Low</span>}
          </td>
          <td>
            {status.data[1].threshold == null ? (
              <span class="muted">no alert</span>
            ) : (
              <Amount base={status.data[1].threshold} networkType={relayer.network_type} symbol={symbol} />
            )}
          </td>
          <td>
            <Time value={status.data[0].checked_at} />
          </td>
        </>
      ) : (
        <td colSpan={3} class="muted">
          {status.state === 'loading' ? 'Loading status…' : `Status unavailable: ${status.error.message}`}
        </td>
      )}
    </tr>
  );
}
