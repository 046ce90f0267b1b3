// Amounts as the console shows and reads them: base units (wei, lamports, stroops) are strings of
// digits, exact at any size, and every conversion here is string arithmetic, never a float. No import:
// test/console/units.spec.ts runs these in Node.

export type NetworkType = 'evm' | 'solana' | 'stellar';

/** Decimals of each network type's native unit: 1 ETH is 10^18 wei, 1 SOL 10^9 lamports, 1 XLM 10^7 stroops. */
export const DECIMALS: Record<NetworkType, number> = { evm: 18, solana: 9, stellar: 7 };

export const BASE_UNIT: Record<NetworkType, string> = {
  evm: 'wei',
  solana: 'lamports',
  stellar: 'stroops',
};

const ONE_BASE_UNIT: Record<NetworkType, string> = { evm: 'wei', solana: 'lamport', stellar: 'stroop' };

/** The native symbol of a network type, for a network whose configuration names none. */
export const DEFAULT_SYMBOL: Record<NetworkType, string> = { evm: 'ETH', solana: 'SOL', stellar: 'XLM' };

/** How many significant digits an amount shows; the exact value is on hover. */
export const SHOWN_DIGITS = 6;

const DIGITS = /^\d+$/;

/** `1234567` as `1,234,567`. */
function grouped(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * An amount in base units (a string of digits) in native units, every digit kept
 * (`1500000000000000000` wei: `1.5`); anything but digits is answered as it is.
 */
export function nativeAmount(base: string, networkType: NetworkType): string {
  if (!DIGITS.test(base)) return base;
  const decimals = DECIMALS[networkType];
  const digits = base.padStart(decimals + 1, '0');
  const whole = grouped(digits.slice(0, digits.length - decimals).replace(/^0+(?=\d)/, ''));
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A string of digits plus one, carried (`0999` gives `1000`, `999` gives `1000`). */
function increment(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/**
 * An amount in base units rounded to at most `digits` significant digits (half up), in base units:
 * `exact` tells whether nothing was lost (`123456789` to 6 digits: `123457000`, not exact).
 */
export function roundBase(base: string, digits = SHOWN_DIGITS): { base: string; exact: boolean } {
  const trimmed = base.replace(/^0+(?=\d)/, '');
  if (trimmed.length <= digits) return { base: trimmed, exact: true };
  const kept = trimmed.slice(0, digits);
  const dropped = trimmed.slice(digits);
  const exact = /^0*$/.test(dropped);
  const rounded = dropped[0] >= '5' ? increment(kept) : kept;
  return { base: rounded + '0'.repeat(dropped.length), exact };
}

export interface ShownAmount {
  /** What the page shows: at most 6 significant digits and the symbol, `≈` when rounded (`≈ 1.23457 ETH`). */
  text: string;
  /** The exact value, in native units and in base units (`1.234567891 ETH (1234567891000000000 wei)`). */
  exact: string;
}

/** An amount in base units as the console shows it, with its exact value for the hover. */
export function showAmount(base: string, networkType: NetworkType, symbol: string): ShownAmount {
  if (!DIGITS.test(base)) return { text: base, exact: base };
  const rounded = roundBase(base);
  const shown = nativeAmount(rounded.base, networkType);
  return {
    text: `${rounded.exact ? '' : '≈ '}${shown} ${symbol}`,
    exact: `${nativeAmount(base, networkType)} ${symbol} (${base.replace(/^0+(?=\d)/, '')} ${BASE_UNIT[networkType]})`,
  };
}

export type Parsed = { ok: true; base: string } | { ok: false; problem: string };

/**
 * An amount typed in native units (`0.05`) as base units (`50000000000000000` wei): digits with at
 * most one decimal point and at most the type's decimals after it; no sign, group separator or
 * exponent. Surrounding spaces are ignored.
 */
export function parseNative(text: string, networkType: NetworkType, symbol: string): Parsed {
  const decimals = DECIMALS[networkType];
  const typed = text.trim();
  if (typed === '') return { ok: false, problem: `Write an amount in ${symbol}, such as 0.05.` };
  const match = /^(\d*)(?:\.(\d*))?$/.exec(typed);
  if (match === null || (match[1] === '' && (match[2] ?? '') === '')) {
    return {
      ok: false,
      problem: `Not an amount: write digits with at most one decimal point, such as 0.05 (no sign, no commas, no exponent).`,
    };
  }
  const whole = match[1];
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) {
    return {
      ok: false,
      problem: `At most ${decimals} decimals: 1 ${ONE_BASE_UNIT[networkType]} is ${nativeAmount('1', networkType)} ${symbol}.`,
    };
  }
  const base = `${whole}${fraction.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  return { ok: true, base };
}
