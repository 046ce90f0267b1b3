import { createHash, timingSafeEqual } from 'node:crypto';
import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * Holds a value that must not reach logs, error messages or responses: every way of turning it into
 * text (JSON, string conversion, `util.inspect` as used by loggers) yields `[redacted]`. Only
 * `reveal()` returns the value, which makes each use of it easy to find.
 */
export class Secret<T> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  reveal(): T {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

/** Constant-time string comparison; digests first, so neither the content nor the length leaks. */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
