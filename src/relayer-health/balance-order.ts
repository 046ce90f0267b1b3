/**
 * A balance (a whole number of base units in decimal, as the checks write it) as text whose order is the
 * numbers' order at any size: its length in three digits, then its digits (`5` is `0015`, `10` is
 * `00210`); null for null (docs/reference/relayers.md#35-ordering-the-list). A varchar(100) has at
 * most 100 digits.
 */
export function balanceOrder(balance: string | null): string | null {
  return balance === null ? null : `${String(balance.length).padStart(3, '0')}${balance}`;
}
