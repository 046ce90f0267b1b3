import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Pagination, type Relayer } from './api/client';
import { STATE_LABEL, stateOf } from './format';
import { liveLoaders, liveReadEnded, liveReadFailed, now, refreshProblem, updatedAt, useLive } from './live';
import { absoluteTime, relativeTime } from './when';

/** What a load is doing: every page shows each of the three states in words. */
export type Load<T> =
  { state: 'loading' } | { state: 'error'; error: ApiError } | { state: 'ready'; data: T };

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError
    ? error
    : new ApiError(0, error instanceof Error ? error.message : String(error));
}

/** A failure that says nothing of the data (no answer, too many requests, the service's own error): a live read keeps what it showed. */
export function isPassingFailure(error: ApiError): boolean {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/**
 * Runs `load` when `deps` change (the last call wins); `reload` runs it again. What an earlier `deps`
 * loaded is never answered for the new ones: until their load ends, the state is loading. Reading
 * the same `deps` again (`reload`, or every 15 s while the tab is visible when `live`: useLive) keeps
 * what is shown until the answer, so that nothing flickers; a live read that fails for a passing
 * reason keeps it too, and the page title says so (LiveStatus).
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  live = false,
): [Load<T>, () => void] {
  const key = JSON.stringify(deps);
  const tick = useLive(live);
  const [result, setResult] = useState<{ key: string; load: Load<T> }>({ key, load: { state: 'loading' } });
  const [round, setRound] = useState(0);
  const shown = useRef(result);
  shown.current = result;
  const lastRound = useRef(round);
  useEffect(() => {
    let current = true;
    const before = shown.current.key === key ? shown.current.load : null;
    // A failure stays on screen while a live round tries again; "Try again" says it is loading.
    const keep = before?.state === 'ready' || (before?.state === 'error' && lastRound.current === round);
    lastRound.current = round;
    if (!keep) setResult({ key, load: { state: 'loading' } });
    load().then(
      (data) => {
        if (!current) return;
        setResult({ key, load: { state: 'ready', data } });
        if (live) liveReadEnded(tick, null);
      },
      (error: unknown) => {
        if (!current) return;
        const failure = asApiError(error);
        if (live && before?.state === 'ready' && isPassingFailure(failure))
          liveReadEnded(tick, failure.message);
        else {
          setResult({ key, load: { state: 'error', error: failure } });
          if (live) liveReadFailed();
        }
      },
    );
    return () => {
      current = false;
    };
  }, [key, round, tick]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return [result.key === key ? result.load : { state: 'loading' }, reload];
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="state loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** What went wrong, in the API's words, and what to do about it. */
export function ErrorState({ error, what, retry }: { error: ApiError; what: string; retry?: () => void }) {
  const advice =
    error.status === 403
      ? 'This key may not read it: ask for a key with the permission, or sign in with another.'
      : error.status === 404
        ? 'It does not exist, or it is outside what this key may see.'
        : error.status === 429
          ? 'Too many requests: wait a moment, then try again.'
          : error.status === 0 || error.status >= 500
            ? 'Try again in a moment; if it persists, check the service.'
            : null;
  return (
    <div class="state error" role="alert">
      <p>
        Could not load {what}: {error.message}
      </p>
      {advice && <p>{advice}</p>}
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state empty">{children}</p>;
}

/** One of the three states of a load, or its content. */
export function Loaded<T>({
  load,
  what,
  retry,
  children,
}: {
  load: Load<T>;
  what: string;
  retry?: () => void;
  children: (data: T) => ComponentChildren;
}) {
  if (load.state === 'loading') return <Loading what={what} />;
  if (load.state === 'error') return <ErrorState error={load.error} what={what} retry={retry} />;
  return <>{children(load.data)}</>;
}

/** Previous and next over the API's pages, with where this page is. */
export function Pager({
  pagination,
  label,
  onPage,
}: {
  pagination: Pagination;
  label: string;
  onPage: (page: number) => void;
}) {
  const { current_page: page, per_page: perPage, total_items: total } = pagination;
  const pages = Math.max(1, Math.ceil(total / Math.max(1, perPage)));
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        {first}–{last} of {total} (page {page} of {pages})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * The pager of a list read by cursor, newest first (docs/reference/pagination.md#17-cursors): back to
 * the newest page, or on to the older one; no page numbers, since nothing is counted.
 */
export function CursorPager({
  label,
  atNewest,
  nextCursor,
  onNewest,
  onOlder,
}: {
  label: string;
  atNewest: boolean;
  nextCursor: string | null;
  onNewest: () => void;
  onOlder: (cursor: string) => void;
}) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={atNewest} onClick={onNewest}>
        Newest
      </button>
      <span aria-live="polite">{nextCursor === null ? 'The oldest shown' : 'Older ones follow'}</span>
      <button
        type="button"
        disabled={nextCursor === null}
        onClick={() => nextCursor !== null && onOlder(nextCursor)}
      >
        Older
      </button>
    </nav>
  );
}

/**
 * A table that scrolls sideways on a narrow screen, reachable and named for keyboard and reader users;
 * its column headers are `head`, or the cells `headCells` gives (sortable ones: console/src/sortable.tsx).
 */
export function Table({
  caption,
  head = [],
  headCells,
  children,
}: {
  caption: string;
  head?: string[];
  headCells?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {headCells ??
              head.map((h) => (
                <th scope="col" key={h}>
                  {h}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A result of an action, announced to screen readers. */
export interface Outcome {
  kind: 'ok' | 'error';
  text: string;
}

export function OutcomeText({ outcome }: { outcome: Outcome | null }) {
  if (outcome === null) return <p class="outcome" role="status" aria-live="polite" />;
  return (
    <p
      class={`outcome ${outcome.kind}`}
      role={outcome.kind === 'error' ? 'alert' : 'status'}
      aria-live="polite"
    >
      {outcome.text}
    </p>
  );
}

/**
 * Runs an action once at a time and says how it went; `done` names a success. Errors show the API's
 * message (the API refuses what the key may not do, whatever the console offers).
 */
export function useAction(): [
  Outcome | null,
  boolean,
  (run: () => Promise<unknown>, done: string) => Promise<boolean>,
] {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const act = useCallback(async (run: () => Promise<unknown>, done: string) => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setOutcome(null);
    try {
      await run();
      setOutcome({ kind: 'ok', text: done });
      return true;
    } catch (error) {
      setOutcome({ kind: 'error', text: asApiError(error).message });
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return [outcome, busy, act];
}

/**
 * An action whose outcome is worded from the API's answer (a test's result, a replay's counts; null:
 * nothing to say); errors show the API's message. The promise ends when the action has.
 */
export function useAnswerAction(): [
  Outcome | null,
  boolean,
  <T>(run: () => Promise<T>, say: (answer: T) => Outcome | null) => Promise<void>,
] {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const act = useCallback(async <T,>(run: () => Promise<T>, say: (answer: T) => Outcome | null) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(say(await run()));
    } catch (error) {
      setOutcome({ kind: 'error', text: asApiError(error).message });
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return [outcome, busy, act];
}

/**
 * A time relative to now ("3 min ago", "in 2 h"), following the clock, with the absolute time and its
 * zone on hover and the exact value for machines; `never` when there is none.
 */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span class="muted">never</span>;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return <span>{value}</span>;
  // Read to follow the clock; Date.now() itself is the time of this render.
  void now.value;
  return (
    <time dateTime={value} title={absoluteTime(at, -new Date(at).getTimezoneOffset())}>
      {relativeTime(at, Date.now())}
    </time>
  );
}

/** When the open page last read its data, while it reads again by itself (useLive); empty otherwise. */
export function LiveStatus() {
  if (liveLoaders.value === 0) return null;
  const at = updatedAt.value;
  const problem = refreshProblem.value;
  return (
    <p class="live-status">
      {at !== null && (
        <>
          Updated <Time value={new Date(at).toISOString()} />
        </>
      )}
      {problem !== null && <span class="live-problem">; the last refresh failed: {problem}</span>}
    </p>
  );
}

/** A page's title, focused on navigation so screen readers announce the new page; when it was updated below it. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <>
      <h1 tabIndex={-1} ref={ref}>
        {children}
      </h1>
      <LiveStatus />
    </>
  );
}

/** A relayer's state as badges: both when the system disabled a paused relayer (contract 24.1). */
export function StateBadges({ relayer }: { relayer: Pick<Relayer, 'paused' | 'system_disabled'> }) {
  const state = stateOf(relayer);
  return (
    <>
      <span class={`badge ${state}`}>{STATE_LABEL[state]}</span>
      {relayer.system_disabled && relayer.paused && <span class="badge paused">{STATE_LABEL.paused}</span>}
    </>
  );
}
