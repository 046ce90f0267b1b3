const DIGITS = /^\d+$/;

/**
 * An amount in base units (a string of digits: wei, lamports, stroops) in native units, every
 * digit kept and thousands grouped (`40000000000000000` with 18 decimals: `0.04`).
 * String arithmetic only: amounts exceed 2^53. The console's nativeAmount (console/src/amounts.ts)
 * writes the same digits; it cannot be imported from here (the console build replaces dist/console,
 * where tsc would emit it) and keys on the network type where a channel has the network's decimals.
 * Null for anything but digits.
 */
export function nativeAmount(base: string, decimals: number): string | null {
  if (!DIGITS.test(base)) return null;
  const digits = base.padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}
