import type { ComponentChildren } from 'preact';
import { ariaSort, nextSort, type Sort } from './sorting';

/**
 * A column header that sorts the table: a button inside the `<th>`, the order said by aria-sort on the
 * header and drawn by an arrow hidden from screen readers.
 */
export function SortHeader<K extends string>({
  label,
  sortKey,
  current,
  onSort,
}: {
  label: string;
  sortKey: K;
  current: Sort<K>;
  onSort: (sort: Sort<K>) => void;
}) {
  const order = ariaSort(current, sortKey);
  return (
    <th scope="col" aria-sort={order}>
      <button type="button" class="sort" onClick={() => onSort(nextSort(current, sortKey))}>
        {label}
        <span class="sort-mark" aria-hidden="true">
          {order === 'ascending' ? ' ▲' : order === 'descending' ? ' ▼' : ' ↕'}
        </span>
      </button>
    </th>
  );
}

/** A plain column header, beside sortable ones. */
export function Header({ children }: { children: ComponentChildren }) {
  return <th scope="col">{children}</th>;
}
