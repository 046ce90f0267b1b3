import pino from 'pino';

/** The statement and its values, as TypeORM and mysql2 copy them onto an error (docs/reference/hardening.md). */
const DROPPED = new Set(['parameters', 'query', 'sql', 'sqlMessage', 'driverError']);

const DRIVER_FIELDS = ['code', 'errno', 'sqlState'] as const;

const MAX_DEPTH = 6;

/** MySQL quotes the offending value in a few messages; SQLite's name columns, never values. */
const QUOTED_VALUES: ReadonlyArray<readonly [RegExp, string]> = [
  [/Duplicate entry '.*' for key/gm, "Duplicate entry '[redacted]' for key"],
  [/value: '.*'(?= for column|$)/gm, "value: '[redacted]'"],
];

function withoutValues(text: string): string {
  return QUOTED_VALUES.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null;
}

/** pino's `err` serializer, which pino calls with the error alone. */
export function serializeError(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutValues(value);
  if (!isFields(value)) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => serializeError(item, depth + 1));
  const fields = value instanceof Error ? (pino.stdSerializers.err(value) as unknown as Fields) : value;
  const output: Fields = {};
  for (const key of Object.keys(fields)) {
    if (!DROPPED.has(key)) output[key] = serializeError(fields[key], depth + 1);
  }
  // An Error's message and stack are not enumerable.
  for (const key of ['type', 'message', 'stack'] as const) {
    if (output[key] === undefined && typeof fields[key] === 'string')
      output[key] = withoutValues(fields[key]);
  }
  const driver = fields.driverError;
  if (isFields(driver)) {
    for (const key of DRIVER_FIELDS) {
      if (output[key] === undefined && driver[key] !== undefined) output[key] = driver[key];
    }
  }
  return output;
}

/** `logger.error(err)`: pino reads the message from the raw error, past the serializer, so it is given here. */
export function withErrorMessageWithoutValues(args: unknown[]): unknown[] {
  const [first, message] = args;
  if (message !== undefined || !isFields(first) || first.msg !== undefined) return args;
  const err = first instanceof Error ? first : first.err;
  if (!isFields(err) || typeof err.message !== 'string') return args;
  return [first, withoutValues(err.message), ...args.slice(2)];
}
