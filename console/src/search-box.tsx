import { useEffect, useRef, useState } from 'preact/hooks';

/** How long typing must pause before a search is sent: one request per pause, not per key. */
export const SEARCH_DELAY_MS = 300;

/**
 * A search field whose text is sent (`onSearch`, trimmed; undefined when empty) once typing pauses for
 * 300 ms. `value` is the search in force (the page's address): the field shows it when it changes
 * elsewhere (a cleared filter, the browser's back button).
 */
export function SearchBox({
  label,
  value,
  maxLength,
  placeholder,
  onSearch,
}: {
  label: string;
  value: string | undefined;
  maxLength: number;
  placeholder: string;
  onSearch: (q: string | undefined) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const send = useRef(onSearch);
  send.current = onSearch;
  useEffect(() => {
    if (text.trim() !== (value ?? '')) setText(value ?? '');
  }, [value]);
  useEffect(() => {
    const q = text.trim();
    if (q === (value ?? '')) return;
    const timer = window.setTimeout(() => send.current(q === '' ? undefined : q), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  return (
    <label class="search">
      {label}
      <input
        type="search"
        value={text}
        maxLength={maxLength}
        placeholder={placeholder}
        autoComplete="off"
        onInput={(event) => setText(event.currentTarget.value)}
      />
    </label>
  );
}
