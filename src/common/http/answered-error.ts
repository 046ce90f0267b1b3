import type { Response } from 'express';

/** Recorded by the exception filter on the response, so that it needs to know nobody who counts. */
export type AnsweredError = 'rate-limited' | 'database-unavailable' | 'database-query';

const KEY = 'answeredError';

export function recordAnsweredError(response: Response, kind: AnsweredError): void {
  response.locals[KEY] = kind;
}

export function answeredErrorOf(response: Response): AnsweredError | undefined {
  return response.locals[KEY] as AnsweredError | undefined;
}
