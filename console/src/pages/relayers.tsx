import { Address } from '../address';
import { api, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, StateBadges, Table, Time, useLoad } from '../components';
import { balanceRead, STATE_FILTER_LABEL, STATE_FILTERS, type StateFilter } from '../format';
import { readNetworks, useSymbols } from '../networks';
import { href, location, navigate } from '../router';
import { can } from '../session';
import { SearchBox } from '../search-box';
import { Header, SortHeader } from '../sortable';
import { parseSort, sortParam, type Sort } from '../sorting';
import { Amount } from '../units';
import { AttentionStrip } from './attention';
import { RelayerCreate } from './relayer-form';

type ListItem = Schemas['RelayerListItemResponse'];

const PER_PAGE = 25;
const NETWORK_TYPES = ['evm', 'solana', 'stellar'] as const;
type NetworkType = (typeof NETWORK_TYPES)[number];
/** The columns that sort the table, as the API's `sort` names them (docs/reference/relayers.md#35-ordering-the-list). */
const SORT_KEYS = ['name', 'created_at', 'balance', 'checked_at'] as const;
type SortKey = (typeof SORT_KEYS)[number];
/** The API's order when none is asked: creation time, then id. */
const DEFAULT_SORT: Sort<SortKey> = { key: 'created_at', descending: false };
/** A search is at most a name's length (the API's q rule). */
const MAX_SEARCH = 255;

interface Filters {
  q?: string;
  network_type?: NetworkType;
  network?: string;
  state?: StateFilter;
  sort?: string;
  page: number;
}

function filtersOf(query: URLSearchParams): Filters {
  const type = query.get('network_type');
  const state = query.get('state');
  const page = Number(query.get('page'));
  const sort = parseSort(query.get('sort'), SORT_KEYS);
  return {
    q: query.get('q')?.trim().slice(0, MAX_SEARCH) || undefined,
    network_type: NETWORK_TYPES.find((t) => t === type),
    network: query.get('network') || undefined,
    state: STATE_FILTERS.find((s) => s === state),
    sort: sort === undefined ? undefined : sortParam(sort),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/**
 * Every relayer the key may see, a page at a time, searched, filtered and ordered by the API, each with
 * its status and alert in the same answer: one request a page (GET /api/v1/relayers?include=status).
 */
export function RelayersPage() {
  const filters = filtersOf(location.value.query);
  const sort = parseSort(filters.sort ?? null, SORT_KEYS) ?? DEFAULT_SORT;
  const [load, reload] = useLoad(
    () =>
      readPage(
        api.GET('/api/v1/relayers', {
          params: {
            query: {
              page: filters.page,
              per_page: PER_PAGE,
              include: 'status',
              q: filters.q,
              sort: filters.sort === undefined ? undefined : sortParam(sort),
              network_type: filters.network_type,
              network: filters.network,
              // Paused: every paused relayer, the ones the system disabled too (contract 24.1), which the
              // API's state=paused leaves out (docs/reference/relayers.md#33-filtering-the-list).
              ...(filters.state === 'paused' ? { paused: 'true' as const } : { state: filters.state }),
            },
          },
        }),
      ),
    [filters.page, filters.q, filters.sort, filters.network_type, filters.network, filters.state],
    true,
  );
  const symbolOf = useSymbols();
  const show = (change: Partial<Filters>) =>
    navigate(['relayers'], { ...filters, page: undefined, ...change });
  const onSort = (next: Sort<SortKey>) => show({ sort: sortParam(next) });
  const searched = filters.q !== undefined;
  const filtered =
    searched ||
    filters.network_type !== undefined ||
    filters.network !== undefined ||
    filters.state !== undefined;
  const others =
    filters.network_type !== undefined || filters.network !== undefined || filters.state !== undefined;
  return (
    <>
      <PageTitle>Relayers</PageTitle>
      <AttentionStrip current={filtered ? filters.state : 'all'} />
      {can('relayers:write') && <RelayerCreate />}
      <form class="filters" aria-label="Filter relayers" onSubmit={(event) => event.preventDefault()}>
        <SearchBox
          label="Search"
          value={filters.q}
          maxLength={MAX_SEARCH}
          placeholder="Name, id or address"
          onSearch={(q) => show({ q })}
        />
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
          <button type="button" onClick={() => navigate(['relayers'], { sort: filters.sort })}>
            Clear filters
          </button>
        )}
      </form>
      <Loaded load={load} what="relayers" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            <Empty>
              {searched
                ? `No relayer matches “${filters.q}”${others ? ' with these filters' : ''}. Clear the search${others ? ' and the filters' : ''} to see every relayer.`
                : filtered
                  ? 'No relayer matches these filters. Clear them to see every relayer.'
                  : can('relayers:write')
                    ? 'No relayers yet. Create one above, with POST /api/v1/relayers, or in the configuration file (docs/configuration.md).'
                    : 'No relayers yet. Create one with POST /api/v1/relayers or list them in the configuration file (docs/configuration.md).'}
            </Empty>
          ) : (
            <>
              <Table
                caption={`Relayers${filtered ? ' (filtered)' : ''}`}
                headCells={
                  <>
                    <SortHeader label="Relayer" sortKey="name" current={sort} onSort={onSort} />
                    <Header>Address</Header>
                    <Header>Network</Header>
                    <Header>State</Header>
                    <SortHeader label="Balance" sortKey="balance" current={sort} onSort={onSort} />
                    <Header>Alert below</Header>
                    <SortHeader label="Last check" sortKey="checked_at" current={sort} onSort={onSort} />
                    <SortHeader label="Created" sortKey="created_at" current={sort} onSort={onSort} />
                  </>
                }
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

/** A relayer with its last check (status) and the threshold that applies to it, from the list's own answer. */
function RelayerRow({ relayer, symbol }: { relayer: ListItem; symbol: string }) {
  const { status, balance_alert: alert } = relayer;
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
      <td>
        {status === undefined || !balanceRead(status, relayer) ? (
          <span
            class="muted"
            title={
              status === undefined || status.checked_at === null
                ? 'Never checked'
                : 'Its last check could not read the balance'
            }
          >
            unknown
          </span>
        ) : (
          <Amount base={status.balance} networkType={relayer.network_type} symbol={symbol} />
        )}
        {status?.low_balance === true && <span class="badge low">Low</span>}
      </td>
      <td>
        {alert?.threshold == null ? (
          <span class="muted">no alert</span>
        ) : (
          <Amount base={alert.threshold} networkType={relayer.network_type} symbol={symbol} />
        )}
      </td>
      <td>
        <Time value={status?.checked_at} />
      </td>
      <td>
        <Time value={relayer.created_at} />
      </td>
    </tr>
  );
}
