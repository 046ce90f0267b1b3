import type { Relayer } from './api/client';

export { BASE_UNIT, nativeAmount } from './amounts';

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

/** The relayers table's state filters, in the hash as `state=` (paused: every paused relayer, disabled or not). */
export const STATE_FILTERS = ['enabled', 'paused', 'disabled', 'low_balance', 'unchecked'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];
export const STATE_FILTER_LABEL: Record<StateFilter, string> = {
  enabled: 'Enabled',
  paused: 'Paused',
  disabled: 'Disabled',
  low_balance: 'Low balance',
  unchecked: 'Never checked',
};
