/**
 * A table's row count for list pagination, cached briefly: COUNT(*) scans an index on every list
 * request. Writes through this process invalidate it; those of other instances show within `ttlMs`.
 */
export class CachedRowCount {
  private value: number | null = null;
  private countedAt = 0;
  private pending: Promise<number> | null = null;
  private generation = 0;

  constructor(
    private readonly count: () => Promise<number>,
    private readonly ttlMs = 1000,
  ) {}

  async get(): Promise<number> {
    if (this.value !== null && Date.now() - this.countedAt < this.ttlMs) return this.value;
    this.pending ??= this.refresh();
    return this.pending;
  }

  invalidate(): void {
    this.generation += 1;
    this.value = null;
    this.pending = null;
  }

  private async refresh(): Promise<number> {
    const generation = this.generation;
    const startedAt = Date.now();
    try {
      const value = await this.count();
      // A write that happened while counting makes this result stale: do not keep it.
      if (generation === this.generation) {
        this.value = value;
        this.countedAt = startedAt;
      }
      return value;
    } finally {
      if (generation === this.generation) this.pending = null;
    }
  }
}
