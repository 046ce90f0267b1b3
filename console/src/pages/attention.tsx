import { api, read } from '../api/client';
import { ErrorState, useLoad } from '../components';
import { href } from '../router';
import { STATE_FILTER_LABEL, type StateFilter } from '../format';
import { can } from '../session';

interface Count {
  /** What the link's filter is, for aria-current: a state filter, `all` or `failing`. */
  id: StateFilter | 'all' | 'failing';
  label: string;
  href: string;
  /** The count; null while it is read. */
  value: number | null;
  /** A count above zero asks for attention. */
  attention: boolean;
}

/**
 * The relayers page's first lines: the relayers the key may see counted by state and, with
 * notifications:read, the failing webhook targets, in one request (GET
 * /api/v1/relayers/summary?include=notifications), each a link to the list it counts. `current` is the
 * relayers table's filter, marked as the current link.
 */
export function AttentionStrip({ current }: { current?: StateFilter | 'all' }) {
  const targets = can('notifications:read');
  const [summary, retry] = useLoad(
    () =>
      read(
        api.GET('/api/v1/relayers/summary', {
          params: { query: targets ? { include: 'notifications' } : {} },
        }),
      ),
    [targets],
    true,
  );
  if (summary.state === 'error')
    return <ErrorState error={summary.error} what="the relayer counts" retry={retry} />;
  const counts = summary.state === 'ready' ? summary.data : null;
  const relayers = (id: StateFilter | 'all', value: number | undefined, attention = false): Count => ({
    id,
    label: id === 'all' ? 'Relayers' : STATE_FILTER_LABEL[id],
    href: href(['relayers'], { state: id === 'all' ? undefined : id }),
    value: value ?? null,
    attention,
  });
  const items: Count[] = [
    relayers('all', counts?.total),
    relayers('enabled', counts?.enabled),
    relayers('paused', counts?.paused),
    relayers('disabled', counts?.disabled, true),
    relayers('low_balance', counts?.low_balance, true),
    relayers('unchecked', counts?.unchecked, true),
  ];
  if (targets) {
    items.push({
      id: 'failing',
      label: 'Failing targets',
      href: href(['notifications'], { failing: 'true' }),
      value: counts?.notifications?.failing ?? null,
      attention: true,
    });
  }
  return (
    <section class="attention" aria-labelledby="attention-heading" aria-busy={counts === null}>
      <h2 id="attention-heading" class="visually-hidden">
        At a glance
      </h2>
      <ul>
        {items.map((item) => (
          <CountLink item={item} current={item.id === current} key={item.id} />
        ))}
      </ul>
    </section>
  );
}

function CountLink({ item, current }: { item: Count; current: boolean }) {
  const { value } = item;
  const known = typeof value === 'number';
  const attention = item.attention && known && value > 0;
  return (
    <li>
      <a
        href={item.href}
        class={`count${attention ? ' attention' : known && value === 0 ? ' calm' : ''}`}
        aria-current={current ? 'true' : undefined}
      >
        <span class="count-value">{known ? value : '…'}</span> <span class="count-label">{item.label}</span>
        {attention && (
          <>
            {' '}
            <span class="count-flag">needs attention</span>
          </>
        )}
      </a>
    </li>
  );
}
