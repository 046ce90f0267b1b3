import { RequestDeadline } from '../common/http/request-deadline';

/** Kept between a wait given up and the request's 504, so that the 503 goes out first. */
const ANSWER_MARGIN_MS = 100;

export class ConnectionWaitTimeoutError extends Error {
  /** "unavailable", a 503 (database-errors.ts). */
  readonly code = 'CONNECTION_WAIT_TIMEOUT';

  constructor(waitedMs: number) {
    super(`no database connection became free within ${waitedMs} ms`);
    this.name = 'ConnectionWaitTimeoutError';
  }
}

/**
 * How long a database call may wait for a connection now (docs/reference/hardening.md, no hanging): at
 * most `maxMs`, and in a request only until shortly before its deadline, so that it is a 503, not a 504.
 */
export function connectionWaitMs(maxMs: number): number {
  const left = RequestDeadline.current()?.remainingMs();
  return Math.max(0, Math.min(maxMs, left === undefined ? maxMs : left - ANSWER_MARGIN_MS));
}

/** `acquire` within connectionWaitMs(maxMs); a connection that comes too late goes to `giveBack`. */
export function acquireWithin<T>(
  acquire: () => Promise<T>,
  maxMs: number,
  giveBack: (late: T) => void,
): Promise<T> {
  const limit = connectionWaitMs(maxMs);
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(new ConnectionWaitTimeoutError(limit));
    }, limit);
    acquire().then(
      (connection) => {
        clearTimeout(timer);
        if (expired) giveBack(connection);
        else resolve(connection);
      },
      (error: Error) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}
