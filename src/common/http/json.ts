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

/** Bytes and structure of a JSON text, counted in one pass over its bytes before it is parsed. */
export interface JsonShape {
  /** Deepest nesting of objects and arrays. */
  readonly depth: number;
  /** Object keys at all levels. */
  readonly keys: number;
  /** Keys of the object that has the most. */
  readonly widest: number;
  /** Array elements at all levels. */
  readonly elements: number;
  /** Objects and arrays. */
  readonly containers: number;
  /** Commas between values: with the containers, about the number of values. */
  readonly separators: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Without recursion, so that absurd nesting is refused before anything recursive touches it; on the
 * UTF-8 bytes, whose multi-byte characters never contain an ASCII byte.
 */
export function jsonShape(bytes: Uint8Array): JsonShape {
  let depth = 0;
  let max = 0;
  let keys = 0;
  let widest = 0;
  let elements = 0;
  let containers = 0;
  let separators = 0;
  /** Keys so far of the object open at each depth, and whether it is an array. */
  const keysAt: number[] = [];
  const arrayAt: boolean[] = [];
  /** An array just opened: its first element, if any, is next. */
  let arrayOpened = false;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (isSpace(c)) continue;
    if (arrayOpened) {
      arrayOpened = false;
      if (c !== CLOSE_ARRAY) elements++;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      containers++;
      keysAt[depth] = 0;
      arrayAt[depth] = c === OPEN_ARRAY;
      arrayOpened = c === OPEN_ARRAY;
      max = Math.max(max, ++depth);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === 0x3a) {
      keys++;
      if (depth > 0) widest = Math.max(widest, ++keysAt[depth - 1]);
    } else if (c === 0x2c) {
      separators++;
      if (depth > 0 && arrayAt[depth - 1]) elements++;
    }
  }
  return { depth: max, keys, widest, elements, containers, separators };
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
