import { AuditChange } from '../audit-change';
import { api, readCursorPage, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { CursorPager, Empty, Loaded, PageTitle, Table, Time, useLoad } from '../components';
import { href, location, navigate } from '../router';
import { me } from '../session';

type AuditRecord = Schemas['AuditEventResponse'];
type AuditQuery = NonNullable<paths['/api/v1/audit']['get']['parameters']['query']>;
type ResourceType = NonNullable<AuditQuery['resource_type']>;
type Action = NonNullable<AuditQuery['action']>;

const PER_PAGE = 25;
const RESOURCE_TYPES: readonly ResourceType[] = [
  'relayer',
  'notification',
  'signer',
  'network',
  'api_key',
  'role',
  'session',
];
/** A sign-in is refused, never updated (docs/access.md#sessions). */
const ACTIONS: readonly Action[] = RESOURCE_TYPES.flatMap((type) =>
  (type === 'session'
    ? (['create', 'refuse', 'delete'] as const)
    : (['create', 'update', 'delete'] as const)
  ).map((verb) => `${type}.${verb}` as Action),
);
const TEXT_FILTERS = [
  { name: 'resource_id', label: 'Resource id', placeholder: '' },
  { name: 'actor_id', label: 'Actor id', placeholder: 'admin, a key id, or <issuer>#<sub>' },
  { name: 'since', label: 'Since', placeholder: '2030-01-01T00:00:00Z' },
  { name: 'until', label: 'Until', placeholder: '2030-01-31T00:00:00Z' },
] as const;
const FILTER_NAMES = ['resource_type', 'action', ...TEXT_FILTERS.map((f) => f.name)] as const;
type FilterName = (typeof FILTER_NAMES)[number];
type Filters = Partial<Record<FilterName, string>>;

/** The filters of the hash query, passed to the API as they are (the API judges them: a 400 says why). */
function filtersOf(query: URLSearchParams): Filters {
  const filters: Filters = {};
  for (const name of FILTER_NAMES) {
    const value = query.get(name);
    if (value !== null && value !== '') filters[name] = value;
  }
  return filters;
}

/** The audit trail, newest first as the API answers it (GET /api/v1/audit), with its filters. */
export function AuditPage() {
  const query = location.value.query;
  const filters = filtersOf(query);
  // By cursor (docs/reference/pagination.md#17-cursors): none for the newest page.
  const cursor = query.get('cursor') || undefined;
  const filtered = Object.keys(filters).length > 0;
  const asked = JSON.stringify([cursor, filters]);
  const [answer, reload] = useLoad(
    () =>
      readCursorPage(
        api.GET('/api/v1/audit', {
          params: {
            query: {
              limit: PER_PAGE,
              ...(cursor === undefined ? {} : { cursor }),
              ...filters,
              // As the hash holds them: an unknown value is the API's to refuse (400, shown).
              resource_type: filters.resource_type as ResourceType | undefined,
              action: filters.action as Action | undefined,
            },
          },
        }),
      ).then((result) => ({ ...result, asked })),
    [asked],
  );
  // The render right after the hash changed still holds the previous answer: it is not this query's.
  const load: typeof answer =
    answer.state === 'ready' && answer.data.asked !== asked ? { state: 'loading' } : answer;
  const scope = me.value?.relayer_ids;
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const next: Filters = {};
    for (const name of FILTER_NAMES) {
      const value = form.get(name);
      if (typeof value === 'string' && value.trim() !== '') next[name] = value.trim();
    }
    navigate(['audit'], next);
  };
  return (
    <>
      <PageTitle>Audit</PageTitle>
      <p class="help page-intro">
        Every change made through the API, newest first, with who made it. Dates are RFC 3339 with an offset
        (2030-01-01T00:00:00Z); since is inclusive, until exclusive.
      </p>
      {scope && (
        <p class="help page-intro">
          This key sees only the records about its relayers ({scope.join(', ')}); records about notifications,
          signers, networks and keys are not shown to it.
        </p>
      )}
      <form class="filters" aria-label="Filter the audit trail" onSubmit={apply} key={query.toString()}>
        <label>
          Resource type
          <select name="resource_type">
            <option value="">Any</option>
            {RESOURCE_TYPES.map((type) => (
              <option value={type} key={type} selected={type === filters.resource_type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select name="action">
            <option value="">Any</option>
            {ACTIONS.map((action) => (
              <option value={action} key={action} selected={action === filters.action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        {TEXT_FILTERS.map((filter) => (
          <label key={filter.name}>
            {filter.label}
            <input
              type="text"
              name={filter.name}
              defaultValue={filters[filter.name] ?? ''}
              placeholder={filter.placeholder}
              autoComplete="off"
            />
          </label>
        ))}
        <button type="submit" class="primary">
          Apply filters
        </button>
        {filtered && (
          <button type="button" onClick={() => navigate(['audit'])}>
            Clear filters
          </button>
        )}
      </form>
      {load.state === 'error' && load.error.status === 400 ? (
        <div class="state error" role="alert">
          <p>The service refused these filters: {load.error.message}</p>
          <p>Correct the filter it names, or clear the filters.</p>
        </div>
      ) : (
        <Loaded load={load} what="the audit trail" retry={reload}>
          {({ items, nextCursor }) =>
            items.length === 0 ? (
              <Empty>
                {cursor !== undefined ? (
                  <>
                    No older record. <a href={href(['audit'], filters)}>Go to the newest records</a>.
                  </>
                ) : filtered ? (
                  'No record matches these filters. Widen or clear them to see more.'
                ) : (
                  'No change has been recorded yet: every change made through the API (relayers, notifications, signers, networks, keys) appears here.'
                )}
              </Empty>
            ) : (
              <>
                <Table
                  caption={`Audit records${filtered ? ' (filtered)' : ''}`}
                  head={['When', 'Actor', 'Action', 'Resource', 'Change']}
                >
                  {items.map((record) => (
                    <RecordRow record={record} key={record.id} />
                  ))}
                </Table>
                <CursorPager
                  label="Audit records"
                  atNewest={cursor === undefined}
                  nextCursor={nextCursor}
                  onNewest={() => navigate(['audit'], filters)}
                  onOlder={(next) => navigate(['audit'], { ...filters, cursor: next })}
                />
              </>
            )
          }
        </Loaded>
      )}
    </>
  );
}

function RecordRow({ record }: { record: AuditRecord }) {
  const { actor } = record;
  return (
    <tr>
      <th scope="row">
        <Time value={record.at} />
      </th>
      <td>
        {actor.name}
        <div class="muted actor">
          {actor.type}
          {actor.id !== null && `, id ${actor.id}`}
        </div>
      </td>
      <td class="audit-action">
        <code>{record.action}</code>
      </td>
      <td>
        {record.resource_type}
        <div class="id">
          {record.resource_type === 'relayer' ? (
            <a href={href(['relayers', record.resource_id])}>{record.resource_id}</a>
          ) : (
            record.resource_id
          )}
        </div>
      </td>
      <td>
        <AuditChange before={record.before} after={record.after} />
      </td>
    </tr>
  );
}
