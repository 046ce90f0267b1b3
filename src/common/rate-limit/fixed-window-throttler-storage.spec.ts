import { FixedWindowThrottlerStorage } from './fixed-window-throttler-storage';

describe('FixedWindowThrottlerStorage', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('lets `limit` hits through in a window, blocks the next for blockDuration, then starts a new window', async () => {
    const storage = new FixedWindowThrottlerStorage();
    const hit = () => storage.increment('k', 5000, 3, 5000, 'default');
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 5, isBlocked: false, timeToBlockExpire: 0 });
    await hit();
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 5, isBlocked: false, timeToBlockExpire: 0 });
    jest.advanceTimersByTime(1000);
    expect(await hit()).toEqual({ totalHits: 4, timeToExpire: 4, isBlocked: true, timeToBlockExpire: 5 });
    jest.advanceTimersByTime(4000);
    expect(await hit()).toEqual({ totalHits: 5, timeToExpire: 0, isBlocked: true, timeToBlockExpire: 1 });
    jest.advanceTimersByTime(1000);
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 5, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps keys apart', async () => {
    const storage = new FixedWindowThrottlerStorage();
    await storage.increment('a', 1000, 1, 1000, 'default');
    expect((await storage.increment('a', 1000, 1, 1000, 'default')).isBlocked).toBe(true);
    expect((await storage.increment('b', 1000, 1, 1000, 'default')).isBlocked).toBe(false);
  });
});
