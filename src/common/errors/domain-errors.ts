/** Errors the services throw, with their HTTP status and a message safe to show to the client. */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** A 400's problems, each with its field, for problem details (docs/reference/envelope-and-errors.md#4-problem-details). */
  readonly fieldProblems?: readonly FieldProblem[];

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export function withStatus<S extends number>(status: S, reason: string) {
  return class extends DomainError {
    readonly status: S = status;

    constructor(message: string = reason) {
      super(message);
    }
  };
}

/** docs/reference/envelope-and-errors.md 2.2: a 400 names at most this many problems. */
export const MAX_NAMED_PROBLEMS = 50;

/** One problem of a 400, as problem details list it (docs/reference/envelope-and-errors.md#4-problem-details). */
export interface FieldProblem {
  /** The path the problem starts with (`custom_rpc_urls[0].weight`), or null when it names none. */
  readonly field: string | null;
  /** The problem's text, as the envelope's message has it. */
  readonly message: string;
}

/** A leading path of field names and indexes, followed by a space or a colon. */
const LEADING_FIELD = /^([a-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*):? /;

/** Words a problem's sentence may start with that are no field (`not a secp256k1 ... key`). */
const SENTENCE_WORDS: ReadonlySet<string> = new Set(['a', 'an', 'and', 'cannot', 'not', 'the', 'unknown']);

/** The field a problem names, by the path it starts with; problems are written that way. */
export function fieldOfProblem(problem: string): string | null {
  const path = LEADING_FIELD.exec(problem)?.[1];
  return path === undefined || SENTENCE_WORDS.has(path) ? null : path;
}

/**
 * Sorted and de-duplicated, so that the same bad body always gets the same message; beyond
 * MAX_NAMED_PROBLEMS, the last entry says how many more there are (a short answer, also where an
 * Idempotency-Key keeps it).
 */
export class ValidationError extends withStatus(400, 'Bad Request') {
  /** The problems the message names, in its order, each with its field. */
  override readonly fieldProblems: readonly FieldProblem[];

  constructor(readonly problems: string | readonly string[]) {
    const named = namedProblems(typeof problems === 'string' ? [problems] : problems);
    super(named.map((problem) => problem.message).join('; '));
    this.fieldProblems = named;
  }
}

function namedProblems(problems: readonly string[]): FieldProblem[] {
  const sorted = [...new Set(problems)].sort();
  const named = sorted
    .slice(0, MAX_NAMED_PROBLEMS)
    .map((message) => ({ field: fieldOfProblem(message), message }));
  const more = sorted.length - MAX_NAMED_PROBLEMS;
  if (more <= 0) return named;
  return [...named, { field: null, message: `and ${more} more ${more === 1 ? 'problem' : 'problems'}` }];
}

export class BadBodyError extends withStatus(400, 'Bad Request') {}
export class UnauthorizedError extends withStatus(401, 'Unauthorized') {}
export class ForbiddenError extends withStatus(403, 'Forbidden') {}
export class NotFoundError extends withStatus(404, 'Not Found') {}
export class ConflictError extends withStatus(409, 'Conflict') {}
export class PreconditionFailedError extends withStatus(412, 'Precondition Failed') {}
export class PayloadTooLargeError extends withStatus(413, 'Payload Too Large') {}
export class UnsupportedMediaTypeError extends withStatus(415, 'Unsupported Media Type') {}
export class ServiceUnavailableError extends withStatus(503, 'Service Unavailable') {}

/** A 503 that says when to come back: the filter sends `Retry-After` with it. */
export class RetryLaterError extends ServiceUnavailableError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
