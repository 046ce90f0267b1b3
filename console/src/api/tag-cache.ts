// The last answer of each GET that came with an ETag, to ask again with If-None-Match and read a 304
// as that answer (docs/reference/pagination.md#16-etag-and-304). No import: test/console/tag-cache.spec.ts
// runs it in Node.

/** An answer kept: its ETag, its body as text and the headers to answer it with again. */
export interface Tagged {
  etag: string;
  body: string;
  headers: [string, string][];
}

/** How many answers a tab keeps, the least recently used dropped first. */
export const KEPT_ANSWERS = 50;

/**
 * The answers of one tab, by who asked (the Authorization header, or the person signed in: another
 * caller never gets them) and what (the whole URL, its query included).
 */
export class TagCache {
  private readonly answers = new Map<string, Tagged>();

  constructor(private readonly limit = KEPT_ANSWERS) {}

  private static keyOf(who: string | null, url: string): string {
    return `${who ?? ''}\n${url}`;
  }

  /** The answer kept for this key and URL, now the most recently used; undefined when none. */
  get(who: string | null, url: string): Tagged | undefined {
    const key = TagCache.keyOf(who, url);
    const kept = this.answers.get(key);
    if (kept === undefined) return undefined;
    this.answers.delete(key);
    this.answers.set(key, kept);
    return kept;
  }

  /** Keeps an answer, dropping the least recently used beyond the limit. */
  set(who: string | null, url: string, answer: Tagged): void {
    const key = TagCache.keyOf(who, url);
    this.answers.delete(key);
    this.answers.set(key, answer);
    while (this.answers.size > this.limit) {
      const oldest = this.answers.keys().next().value;
      if (oldest === undefined) break;
      this.answers.delete(oldest);
    }
  }

  /** Forgets the answer of this key and URL (an answer without a tag replaced it). */
  delete(who: string | null, url: string): void {
    this.answers.delete(TagCache.keyOf(who, url));
  }

  get size(): number {
    return this.answers.size;
  }

  clear(): void {
    this.answers.clear();
  }
}
