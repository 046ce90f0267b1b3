import { BodyMemoryBudget, parsedBodyEstimate } from './body-memory-budget';
import { jsonShape } from './json';

describe('BodyMemoryBudget', () => {
  it('holds reservations up to its limit and refuses one that does not fit, changing nothing', () => {
    const budget = new BodyMemoryBudget(100);
    const a = budget.reserve(60);
    expect([a !== null, budget.reserve(50), budget.inUse]).toEqual([true, null, 60]);
    const b = budget.reserve(40);
    expect([b !== null, budget.inUse]).toEqual([true, 100]);
  });

  it('resizes a reservation: shrinking always fits, growing only into what the others leave', () => {
    const budget = new BodyMemoryBudget(100);
    const a = budget.reserve(30)!;
    budget.reserve(50);
    expect([a.resize(60), budget.inUse]).toEqual([false, 80]);
    expect([a.resize(50), budget.inUse]).toEqual([true, 100]);
    expect([a.resize(10), budget.inUse]).toEqual([true, 60]);
  });

  it('gives everything back on release, once; a second release changes nothing', () => {
    const budget = new BodyMemoryBudget(100);
    const a = budget.reserve(70)!;
    const b = budget.reserve(20)!;
    a.release();
    a.release();
    expect(budget.inUse).toBe(20);
    b.release();
    expect([budget.inUse, budget.reserve(100) !== null]).toEqual([0, true]);
  });

  it('lets one body alone exceed a budget smaller than it, never a second one beside it', () => {
    const budget = new BodyMemoryBudget(100);
    const alone = budget.reserve(150)!;
    expect([alone.resize(300), budget.inUse, budget.reserve(1)]).toEqual([true, 300, null]);
    alone.release();
    const small = budget.reserve(10)!;
    expect([budget.reserve(150), small.resize(100), budget.inUse]).toEqual([null, true, 100]);
  });
});

describe('parsedBodyEstimate', () => {
  it.each<[string, number]>([
    ['{}', 2 * 2 + 64],
    ['{"a":1,"b":[1,2]}', 2 * 17 + 64 * 2 + 16 * (2 + 2)],
    ['[{},{},{}]', 2 * 10 + 64 * 4 + 16 * 2],
  ])('%s -> %i bytes', (text, bytes) => {
    expect(parsedBodyEstimate(text.length, jsonShape(Buffer.from(text)))).toBe(bytes);
  });
});
