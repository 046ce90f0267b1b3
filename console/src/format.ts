import type { Relayer } from './api/client';

/** Decimals of each network type's native unit: wei, lamports, stroops. */
const DECIMALS: Record<Relayer['network_type'], number> = { evm: 18, solana: 9, stellar: 7 };

/**
 * An amount in base units (a string of digits, exact at any size) in native units, without rounding
 * (`1500000000000000000` wei: `1.5`).
 */
export function nativeAmount(base: string, networkType: Relayer['network_type']): string {
  if (!/^\d+$/.test(base)) return base;
  const decimals = DECIMALS[networkType];
  const digits = base.padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export const BASE_UNIT: Record<Relayer['network_type'], string> = {
  evm: 'wei',
  solana: 'lamports',
  stellar: 'stroops',
};

export type RelayerState = 'enabled' | 'paused' | 'disabled';

export function stateOf(relayer: Pick<Relayer, 'paused' | 'system_disabled'>): RelayerState {
  if (relayer.system_disabled) return 'disabled';
  return relayer.paused ? 'paused' : 'enabled';
}

/** A below-min_balance verdict: the check read the balance (docs/reference/relayer-health.md#13-verdicts). */
const BELOW_MIN_BALANCE = /^balance \d+ is below min_balance \d+$/;

/**
 * Whether the status's balance is one its last check read (contract 24.1: else it is `unknown`): not
 * before the first check (the status answers "0", as the reference interface does), nor after a
 * check that failed before it read one or failed reading it (it keeps the last balance read): every
 * verdict but a BalanceCheckFailed that compared a balance it read with min_balance.
 */
export function balanceRead(
  status: { checked_at: string | null },
  relayer: Pick<Relayer, 'system_disabled' | 'disabled_reason'>,
): boolean {
  if (status.checked_at === null) return false;
  const reason = relayer.disabled_reason;
  if (!relayer.system_disabled || reason === null) return true;
  return reason.type === 'BalanceCheckFailed' && BELOW_MIN_BALANCE.test(reason.details);
}

export const STATE_LABEL: Record<RelayerState, string> = {
  enabled: 'Enabled',
  paused: 'Paused',
  disabled: 'Disabled',
};
