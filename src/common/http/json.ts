interface ReviverContext {
  source?: string;
}

type Reviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

const INTEGER = /^-?\d+$/;

const keepBigIntegers: Reviver = (_key, value, context) =>
  typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && INTEGER.test(context.source)
    ? BigInt(context.source)
    : value;

/** Text without an unsafe integer's 16 digits in a row needs no reviver: JSON.parse is faster. */
const SIXTEEN_DIGITS = /\d{16}/;

/** JSON.parse that keeps unsafe integers exact (as bigint). */
export function parseJson(text: string): unknown {
  if (!SIXTEEN_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepBigIntegers as Parameters<typeof JSON.parse>[1]);
}

/** Counted without recursion, so that absurd nesting is refused before anything recursive touches it. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

// JSON.rawJSON (Node >= 21) is not in TypeScript's lib yet.
const rawJson = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON;

/** Bigints as raw JSON numbers, so that res.json needs no replacer visiting every value. */
export function withRawIntegers(value: unknown): unknown {
  if (typeof value === 'bigint') return rawJson(value.toString());
  if (Array.isArray(value)) return value.map(withRawIntegers);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withRawIntegers(item)]));
}

export function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? rawJson(value.toString()) : value;
}

export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, bigintReplacer);
}
