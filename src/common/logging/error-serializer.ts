import pino from 'pino';

/**
 * What a database error carries that must never reach the log (docs/reference/hardening.md): TypeORM's
 * QueryFailedError copies the statement (`query`) and its values (`parameters`) onto itself, and
 * every field of the driver's error, which mysql2 gives the statement with its values inlined
 * (`sql`) and the server's message again (`sqlMessage`); `driverError` is that error whole.
 * Signing keys, signer keys and RPC credentials are such values.
 */
const DROPPED = new Set(['parameters', 'query', 'sql', 'sqlMessage', 'driverError']);

/** Kept from a dropped `driverError` when the error itself lacks them: what names the failure. */
const DRIVER_FIELDS = ['code', 'errno', 'sqlState'] as const;

/** Deeper than any error's own fields; keeps a hostile or circular object from costing time. */
const MAX_DEPTH = 6;

/**
 * MySQL quotes the offending value in a few messages: `Duplicate entry '<value>' for key ...`,
 * `Incorrect integer value: '<value>' for column ...`. The value goes; names of keys and columns
 * stay, they say what failed. SQLite's messages name columns, never values.
 */
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

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return withoutValues(value);
  if (!isFields(value)) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1));
  // A raw error (a cause, an aggregated error) becomes what pino's own serializer makes of it.
  const fields = value instanceof Error ? (pino.stdSerializers.err(value) as unknown as Fields) : value;
  const output: Fields = {};
  for (const key of Object.keys(fields)) {
    if (!DROPPED.has(key)) output[key] = clean(fields[key], depth + 1);
  }
  // Own fields that pino's serializer does not list: an Error's message and stack are not enumerable.
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

/**
 * pino's `err` serializer for every logger of the service: the error as pino's standard serializer
 * shows it (type, message and stack with their causes, every other field), without the statement,
 * its values and the driver's copy of them, at any depth, and without values quoted in messages.
 * The code, errno and SQL state stay: they say what failed. pino-http hands it what the standard
 * serializer made already; a plain pino logger the error itself.
 */
export function serializeError(err: unknown): unknown {
  return clean(err, 0);
}

/**
 * The arguments of a log call, with the message pino would take from the error itself (a call
 * that gives none, such as `logger.error(err)` or Nest's `logger.error(err)`) given explicitly,
 * without quoted values: pino reads that message from the raw error, past the serializer.
 */
export function withErrorMessageWithoutValues(args: unknown[]): unknown[] {
  const [first, message] = args;
  if (message !== undefined || !isFields(first) || first.msg !== undefined) return args;
  const err = first instanceof Error ? first : first.err;
  if (!isFields(err) || typeof err.message !== 'string') return args;
  return [first, withoutValues(err.message), ...args.slice(2)];
}
