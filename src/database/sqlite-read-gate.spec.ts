import { Logger } from '@nestjs/common';
import { SqliteReadGate } from './sqlite-read-gate';

/** Lets every promise callback queued so far run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SqliteReadGate', () => {
  it('a query from outside waits while a transaction is open, and runs once it ends', async () => {
    const gate = new SqliteReadGate();
    const order: string[] = [];
    let finish!: () => void;
    const transaction = gate.transaction(async () => {
      order.push('transaction begins');
      expect(gate.enter()).toBeUndefined(); // its own queries pass at once
      gate.leave();
      await new Promise<void>((resolve) => (finish = resolve));
      order.push('transaction ends');
    });
    await settle();
    const waiting = gate.enter();
    expect(waiting).toBeInstanceOf(Promise);
    const query = (waiting as Promise<void>).then(() => order.push('query runs'));
    await settle();
    expect(order).toEqual(['transaction begins']);
    finish();
    await Promise.all([transaction, query]);
    expect(order).toEqual(['transaction begins', 'transaction ends', 'query runs']);
    gate.leave();
  });

  it('a transaction begins only once the queries under way have run', async () => {
    const gate = new SqliteReadGate();
    const order: string[] = [];
    expect(gate.enter()).toBeUndefined();
    expect(gate.enter()).toBeUndefined();
    const transaction = gate.transaction(() => {
      order.push('transaction');
      return Promise.resolve();
    });
    await settle();
    gate.leave();
    await settle();
    expect(order).toEqual([]);
    gate.leave();
    await transaction;
    expect(order).toEqual(['transaction']);
  });

  it('a failed transaction releases the queries it held', async () => {
    const gate = new SqliteReadGate();
    const transaction = gate.transaction(async () => {
      await settle();
      throw new Error('rolled back');
    });
    await Promise.resolve(); // the transaction begins
    const waiting = gate.enter();
    expect(waiting).toBeInstanceOf(Promise);
    await expect(transaction).rejects.toThrow('rolled back');
    await expect(waiting).resolves.toBeUndefined();
    gate.leave();
    expect(gate.enter()).toBeUndefined();
  });

  it('a query held 5 s runs anyway, with a warning, while the transaction stays open', async () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const gate = new SqliteReadGate();
      let finish!: () => void;
      const transaction = gate.transaction(() => new Promise<void>((resolve) => (finish = resolve)));
      await Promise.resolve(); // the transaction begins
      const waiting = gate.enter() as Promise<void>;
      let ran = false;
      void waiting.then(() => (ran = true));
      await jest.advanceTimersByTimeAsync(4999);
      expect(ran).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(ran).toBe(true);
      expect(warn.mock.calls).toEqual([['a query waited 5000 ms for a transaction to end; it runs now']]);
      gate.leave();
      finish();
      await transaction;
    } finally {
      warn.mockRestore();
      jest.useRealTimers();
    }
  });
});
