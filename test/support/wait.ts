/**
 * Waiting in tests: every wait polls a condition (or races a promise) against a deadline and,
 * when the deadline passes, fails naming what it waited for. Deadlines stay well under Jest's
 * 60 s test timeout, so a hang is reported by the wait that hung, not by Jest.
 */

export interface WaitOptions {
  /** How long to keep trying (default 10 s). */
  timeoutMs?: number;
  /** Pause between two tries (default 50 ms). */
  intervalMs?: number;
  /** Extra text for the failure message (a log tail, the state seen last). */
  detail?: () => string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls check until it returns a value other than false, null or undefined, and returns that
 * value. A check that throws counts as not yet; its last error is named if the deadline passes.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  { timeoutMs = 10_000, intervalMs = 50, detail }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== null && value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause =
        lastError === undefined
          ? ''
          : `; last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)}`;
      const more = detail ? `\n${detail()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}${more}`);
    }
    await pause(intervalMs);
  }
}

/** The promise's outcome, or a failure naming what did not finish within timeoutMs. */
export async function withDeadline<T>(
  what: string,
  promise: Promise<T>,
  timeoutMs: number,
  detail?: () => string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const more = detail ? `\n${detail()}` : '';
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${more}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
