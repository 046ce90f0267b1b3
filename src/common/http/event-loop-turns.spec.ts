import { EventLoopTurns } from './event-loop-turns';

/** Holds the thread for `ms`, as a check of a large body or its validation does. */
const busy = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

describe('EventLoopTurns', () => {
  it('runs pieces in order, one per turn, with the rest of the loop served between two', async () => {
    const turns = new EventLoopTurns();
    const seen: string[] = [];
    const pieces = [1, 2, 3].map((n) =>
      turns.run(() => {
        seen.push(`piece ${n}`);
        return n;
      }),
    );
    // Queued after the first piece's turn: it runs before the second piece.
    setImmediate(() => seen.push('other work'));
    expect(await Promise.all(pieces)).toEqual([1, 2, 3]);
    expect(seen).toEqual(['piece 1', 'other work', 'piece 2', 'piece 3']);
  });

  it("what a piece's caller does next without I/O (a validation) runs in the piece's turn, before the next piece", async () => {
    const turns = new EventLoopTurns();
    const seen: string[] = [];
    const first = turns
      .run(() => 'body 1')
      .then((body) => {
        busy(5);
        seen.push(`validated ${body}`);
      });
    const second = turns.run(() => {
      seen.push('parsed body 2');
    });
    setImmediate(() => seen.push('other work'));
    await Promise.all([first, second]);
    expect(seen).toEqual(['validated body 1', 'other work', 'parsed body 2']);
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
