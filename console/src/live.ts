import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

/** How often an open page reads its data again while its tab is visible (docs/console.md#32-live-pages). */
export const LIVE_EVERY_MS = 15_000;

/**
 * Bumped LIVE_EVERY_MS after the last live read ended while the tab is visible, and at once when it
 * becomes visible again. Timed from the end of a read, not from the page's start: a slow answer never
 * brings the next round closer, and rounds never pile up behind a slow API.
 */
const round = signal(0);
/** How many live loaders are mounted: the timer runs while there is one, and the page says when it read. */
export const liveLoaders = signal(0);
/** When a live read of the open page last ended well (ms since the epoch); null before the first. */
export const updatedAt = signal<number | null>(null);
/** Why the last live read failed, until a read of a later round ends well; the page keeps what it showed. */
export const refreshProblem = signal<string | null>(null);
/** Now, every second while the tab is visible: relative times ("12 s ago") follow it. */
export const now = signal(Date.now());

const visible = () => document.visibilityState === 'visible';
let next: number | undefined;
let clock: number | undefined;
/** The round of the last failed read: a success of that round does not clear its problem. */
let problemRound = -1;

/** The next round LIVE_EVERY_MS from now, replacing any timed before; none while hidden or unused. */
function schedule(): void {
  window.clearTimeout(next);
  next = undefined;
  if (liveLoaders.value > 0 && visible()) {
    next = window.setTimeout(() => {
      next = undefined;
      round.value++;
    }, LIVE_EVERY_MS);
  }
}

function tickClock(): void {
  window.clearInterval(clock);
  clock = undefined;
  if (visible()) {
    now.value = Date.now();
    clock = window.setInterval(() => (now.value = Date.now()), 1000);
  }
}

// Hidden: nothing is read and nothing ticks. Visible again: everything is read at once, and the
// next round is timed from the end of that read.
document.addEventListener('visibilitychange', () => {
  if (visible() && liveLoaders.value > 0) round.value++;
  schedule();
  tickClock();
});
tickClock();

/**
 * The live round of a loader that reads again every 15 s while the tab is visible (`enabled`), to
 * put among the effect's dependencies; 0 and no timer when not. While one is mounted the page title
 * says when the page was last updated; when the last one goes (another page), that is forgotten.
 */
export function useLive(enabled = true): number {
  useEffect(() => {
    if (!enabled) return;
    liveLoaders.value++;
    if (liveLoaders.value === 1) schedule();
    return () => {
      liveLoaders.value--;
      if (liveLoaders.value === 0) {
        schedule();
        updatedAt.value = null;
        refreshProblem.value = null;
      }
    };
  }, [enabled]);
  return enabled ? round.value : 0;
}

/** A live read ended in an error the page shows instead of its data: it is tried again next round. */
export function liveReadFailed(): void {
  schedule();
}

/**
 * A live read of round `of` ended: well (`problem` null), or failed with the page's data kept. The
 * next round is timed from here (the read that ends last on a page with several sets it).
 */
export function liveReadEnded(of: number, problem: string | null): void {
  schedule();
  if (problem !== null) {
    refreshProblem.value = problem;
    problemRound = of;
    return;
  }
  updatedAt.value = Date.now();
  if (of > problemRound) refreshProblem.value = null;
}
