/** Far above any balance (uint256 has 78 digits); only keeps a hostile value from costing time. */
export const MAX_THRESHOLD_DIGITS = 1000;

const RULE =
  `threshold must be a whole number >= 0 in the base unit (a JSON integer or a string of decimal digits, ` +
  `at most ${MAX_THRESHOLD_DIGITS} digits)`;
const DIGITS = /^\d+$/;

/**
 * A threshold as the body gives it (docs/reference/balance-alerts.md#1-thresholds): a JSON integer
 * (a bigint beyond 2^53, as parseJson keeps it) or a string of decimal digits, answered as the
 * decimal string of its value. `null` only where `nullable`. A number that is not a safe integer is
 * refused: its digits are not known exactly.
 */
export function parseThreshold(
  value: unknown,
  nullable: boolean,
): { readonly threshold: string | null } | { readonly problem: string } {
  if (value === undefined) return { problem: 'threshold is required' };
  if (value === null) {
    return nullable ? { threshold: null } : { problem: `${RULE}; null is for a relayer's own rule` };
  }
  if (typeof value === 'bigint') return value >= 0n ? { threshold: value.toString() } : { problem: RULE };
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? { threshold: String(value + 0) } : { problem: RULE };
  }
  if (typeof value === 'string' && value.length <= MAX_THRESHOLD_DIGITS && DIGITS.test(value)) {
    return { threshold: BigInt(value).toString() };
  }
  return { problem: RULE };
}

/** Below the threshold: the balance is strictly less (docs/reference/balance-alerts.md#3-events). */
export function isBelowThreshold(balance: bigint, threshold: string): boolean {
  return balance < BigInt(threshold);
}
