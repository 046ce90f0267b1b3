import { balanceOrder } from './balance-order';

describe('balanceOrder (docs/reference/relayers.md#35-ordering-the-list)', () => {
  it.each([
    ['0', '0010'],
    ['5', '0015'],
    ['10', '00210'],
    ['18446744073709551617', '02018446744073709551617'],
    ['9'.repeat(100), `100${'9'.repeat(100)}`],
  ])('%s → %s', (balance, order) => {
    expect(balanceOrder(balance)).toBe(order);
  });

  it('null (no balance read) → null', () => {
    expect(balanceOrder(null)).toBeNull();
  });

  it('the orders, compared as text byte for byte, sort as the numbers do, at any size', () => {
    const numbers = [
      0n,
      9n,
      10n,
      99n,
      100n,
      2n ** 53n + 1n,
      2n ** 64n - 1n,
      2n ** 64n,
      2n ** 64n + 1n,
      10n ** 21n,
      10n ** 99n,
      10n ** 100n - 1n,
    ];
    // Every 5th of 12 in turn: each once, out of order.
    const mixed = numbers.map((_, i) => numbers[(i * 5) % numbers.length]);
    const byText = mixed
      .map((n) => ({ n, order: balanceOrder(n.toString()) as string }))
      .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
      .map(({ n }) => n);
    expect(byText).toEqual(numbers);
  });
});
