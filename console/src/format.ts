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

export const STATE_LABEL: Record<RelayerState, string> = {
  enabled: 'Enabled',
  paused: 'Paused',
  disabled: 'Disabled',
};
