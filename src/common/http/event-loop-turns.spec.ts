import { EventLoopTurns } from './event-loop-turns';

/** Holds the thread for `ms`, as a check of a large body does. */
const busy = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

describe('EventLoopTurns', () => {
  it('runs pieces in order, about 10 ms of them per turn, with the rest of the loop served between turns', async () => {
    const turns = new EventLoopTurns();
    const seen: string[] = [];
    const pieces = [1, 2, 3, 4, 5].map((n) =>
      turns.run(() => {
        busy(6);
        seen.push(`piece ${n}`);
        return n;
      }),
    );
    // Queued after the first turn: it runs once that turn has used its 10 ms (two pieces of 6).
    setImmediate(() => seen.push('other work'));
    expect(await Promise.all(pieces)).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual(['piece 1', 'piece 2', 'other work', 'piece 3', 'piece 4', 'piece 5']);
  });

  it('a piece that throws rejects its own promise only', async () => {
    const turns = new EventLoopTurns();
    const failing = turns.run(() => {
      throw new Error('bad body');
    });
    const next = turns.run(() => 'parsed');
    await expect(failing).rejects.toThrow('bad body');
    await expect(next).resolves.toBe('parsed');
  });
});
