import { ValidateBy } from 'class-validator';

/** Far above any balance (uint256 has 78 digits); only keeps a hostile value from costing time. */
export const MAX_THRESHOLD_DIGITS = 1000;

const RULE =
  `threshold must be a whole number >= 0 in the base unit (a JSON integer or a string of decimal digits, ` +
  `at most ${MAX_THRESHOLD_DIGITS} digits)`;
const DIGITS = /^\d+$/;

/** A threshold as a body may give it, `null` aside. */
export type ThresholdValue = bigint | number | string;

/**
 * A threshold as the body gives it (docs/reference/balance-alerts.md#1-thresholds): a JSON integer
 * (a bigint beyond 2^53, as parseJson keeps it) or a string of decimal digits. A number that is not a
 * safe integer is refused: its digits are not known exactly.
 */
function isThreshold(value: unknown): value is ThresholdValue {
  if (typeof value === 'bigint') return value >= 0n;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0;
  return typeof value === 'string' && value.length <= MAX_THRESHOLD_DIGITS && DIGITS.test(value);
}

/** Required; `null` only where `nullable` (a relayer's own rule: no alert). */
export const IsThreshold = (nullable: boolean): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isThreshold',
      validator: { validate: (value: unknown) => (nullable && value === null) || isThreshold(value) },
    },
    {
      message: ({ value }) => {
        if (value === undefined) return 'threshold is required';
        return value === null ? `${RULE}; null is for a relayer's own rule` : RULE;
      },
    },
  );

/** The decimal string of a threshold's value, as the checks use it. */
export const thresholdText = (value: ThresholdValue): string => BigInt(value).toString();

/** Below the threshold: the balance is strictly less (docs/reference/balance-alerts.md#3-events). */
export function isBelowThreshold(balance: bigint, threshold: string): boolean {
  return balance < BigInt(threshold);
}
