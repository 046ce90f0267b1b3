import { STATUS_CODES } from 'node:http';
import type { FieldProblem } from '../errors/domain-errors';

/** RFC 9457's media type: asked for in `Accept`, an error answers in it instead of the envelope. */
export const PROBLEM_JSON = 'application/problem+json';

/** What failed, in either form: the envelope's message, and for a 400 the problems it names. */
export interface Failure {
  readonly status: number;
  readonly message: string;
  readonly problems?: readonly FieldProblem[];
}

/** An error answer's media type and body (docs/reference/envelope-and-errors.md#4-problem-details). */
export interface ErrorAnswer {
  readonly contentType: string;
  readonly body: object;
}

export const errorEnvelope = (message: string) => ({ success: false, data: null, message, error: message });

/**
 * True when a media range of `Accept` is `application/problem+json` with a quality above 0, wherever
 * it is in the list; `*\/*`, `application/*` and `application/json` alone keep the envelope.
 */
export function acceptsProblemDetails(accept: string | readonly string[] | undefined): boolean {
  const header = typeof accept === 'string' ? accept : (accept ?? []).join(',');
  return header.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim());
    return type.toLowerCase() === PROBLEM_JSON && qualityOf(params) > 0;
  });
}

/** `q` of a media range's parameters: 1 when absent, 0 when unreadable (RFC 9110 12.4.2). */
function qualityOf(params: readonly string[]): number {
  const q = params.find((param) => /^q\s*=/i.test(param));
  if (q === undefined) return 1;
  const value = q.slice(q.indexOf('=') + 1).trim();
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value) ? Number(value) : 0;
}

/** The request's path without its query: the problem's `instance`. */
export const instanceOf = (url: string | undefined): string => (url ?? '/').split('?', 1)[0] || '/';

/**
 * The answer to a failure: RFC 9457 problem details when `Accept` asks for them, else the envelope.
 * `type` is `about:blank`, so `title` is the status's reason phrase; `detail` is the envelope's
 * message; a 400 lists its problems under `errors`.
 */
export function errorAnswer(
  accept: string | readonly string[] | undefined,
  url: string | undefined,
  { status, message, problems }: Failure,
): ErrorAnswer {
  if (!acceptsProblemDetails(accept))
    return { contentType: 'application/json', body: errorEnvelope(message) };
  return {
    contentType: PROBLEM_JSON,
    body: {
      type: 'about:blank',
      title: STATUS_CODES[status] ?? 'Error',
      status,
      detail: message,
      instance: instanceOf(url),
      ...(status === 400
        ? {
            errors: (problems ?? [{ field: null, message }]).map(({ field, message: text }) => ({
              field,
              message: text,
            })),
          }
        : {}),
    },
  };
}
