import { CachedRowCount } from './cached-row-count';

describe('CachedRowCount', () => {
  it('counts once for concurrent callers and reuses the value within the ttl', async () => {
    let calls = 0;
    const cache = new CachedRowCount(() => Promise.resolve(++calls * 10), 60_000);
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([10, 10, 10]);
    expect(await cache.get()).toBe(10);
    expect(calls).toBe(1);
  });

  it('counts again after invalidate(), and drops a count that raced a write', async () => {
    let release: (n: number) => void = () => undefined;
    let calls = 0;
    const cache = new CachedRowCount(
      () =>
        new Promise<number>((resolve) => {
          calls += 1;
          release = resolve;
        }),
      60_000,
    );
    const first = cache.get();
    cache.invalidate(); // a write lands while the first count runs
    release(5);
    expect(await first).toBe(5);
    const second = cache.get();
    expect(calls).toBe(2);
    release(6);
    expect(await second).toBe(6);
    expect(await cache.get()).toBe(6);
  });

  it('counts again once the ttl has passed', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      let calls = 0;
      const cache = new CachedRowCount(() => Promise.resolve(++calls), 1000);
      expect(await cache.get()).toBe(1);
      jest.advanceTimersByTime(999);
      expect(await cache.get()).toBe(1);
      jest.advanceTimersByTime(1);
      expect(await cache.get()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
