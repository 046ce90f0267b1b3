import type { JsonShape } from './json';

/** What one request holds of the budget; its size changes as more is known about its body. */
export interface BodyReservation {
  /** Holds `bytes` instead of what it held; false (and nothing changed) when they do not fit. */
  resize(bytes: number): boolean;
  /** Gives everything back; once is enough, twice is harmless. */
  release(): void;
}

/**
 * The memory that request bodies read and held at once may take, in all (BODY_MEMORY_LIMIT_MB,
 * docs/reference/hardening.md#3-bodies). A body that does not fit waits for nobody: its request is
 * refused. One body alone always fits, however small the budget, so that a small budget never
 * refuses a body for ever; the body limit (1 MiB) bounds that one.
 */
export class BodyMemoryBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes held now by every reservation. */
  get inUse(): number {
    return this.used;
  }

  /** A reservation of `bytes`, or null when they do not fit in what the others leave. */
  reserve(bytes: number): BodyReservation | null {
    let held = 0;
    const resize = (next: number): boolean => {
      const others = this.used - held;
      if (next > held && others > 0 && others + next > this.limitBytes) return false;
      this.used = others + next;
      held = next;
      return true;
    };
    return resize(bytes) ? { resize, release: () => void resize(0) } : null;
  }
}

/**
 * An upper bound of the memory a body takes from its read to its end: its bytes twice (the buffer,
 * then its text while it is parsed) and its parsed values (in V8 an empty object takes about 64
 * bytes, an array slot 8, a property 16 to 32). The parsed form of the shapes measured (1 MiB of
 * `[{},...]`, `[[],...]`, `[1,...]`, `["ab",...]`, `[null,...]`, 10,000 keys) takes up to 21 times
 * its text, and less than this estimate.
 */
export function parsedBodyEstimate(length: number, shape: JsonShape): number {
  return 2 * length + 64 * shape.containers + 16 * (shape.separators + shape.keys);
}
