/** What the clock below leaves real: every timer, tick and performance measure; only Date stops. */
const STILL_REAL = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

/**
 * Stops Date at `at` for the test and for the app it runs in this process alike (`Date.now()`,
 * `new Date()`): times the service writes and reads are then chosen by the test, and
 * `jest.setSystemTime(t)` moves them on. Timers keep running, so the app's loops and requests work as
 * ever; a wait's deadline (test/support/wait.ts) no longer passes meanwhile. `realClock()` ends it.
 */
export function stopClockAt(at: number): void {
  jest.useFakeTimers({ now: at, doNotFake: [...STILL_REAL] });
}

export function realClock(): void {
  jest.useRealTimers();
}
