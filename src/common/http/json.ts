/**
 * JSON in and out without losing digits: integers beyond 2^53 (wei amounts, int64 limits) are
 * parsed as bigint from their source text, and bigints are written back as bare JSON numbers.
 */

interface ReviverContext {
  source?: string;
}

type Reviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

const INTEGER = /^-?\d+$/;

const keepBigIntegers: Reviver = (_key, value, context) => {
  if (
    typeof value === 'number' &&
    !Number.isSafeInteger(value) &&
    context?.source &&
    INTEGER.test(context.source)
  ) {
    return BigInt(context.source);
  }
  return value;
};

/** JSON.parse that keeps unsafe integers exact (as bigint). Throws SyntaxError like JSON.parse. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, keepBigIntegers as Parameters<typeof JSON.parse>[1]);
}

interface JsonWithRaw {
  rawJSON: (text: string) => unknown;
}

// JSON.rawJSON (Node >= 21) is not in TypeScript's lib yet.
const rawJson = (JSON as unknown as JsonWithRaw).rawJSON;

/** A JSON.stringify replacer that writes bigint values as JSON numbers with every digit. */
export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? rawJson(value.toString()) : value;
}

export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, bigintReplacer);
}
