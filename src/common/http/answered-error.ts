import type { Response } from 'express';

/**
 * What kind of failure an error response stood for, beyond its status: the exception filter
 * records it on the response, and whoever observes finished responses (the metrics) reads it
 * there, so that the filter needs to know nobody.
 */
export type AnsweredError = 'rate-limited' | 'database-unavailable' | 'database-query';

const KEY = 'answeredError';

export function recordAnsweredError(response: Response, kind: AnsweredError): void {
  response.locals[KEY] = kind;
}

export function answeredErrorOf(response: Response): AnsweredError | undefined {
  return response.locals[KEY] as AnsweredError | undefined;
}
