import type { RelayerSnapshot } from './relayer-snapshot';
import type { RelayerStatusResponse } from './dto/relayer-status.dto';
import type { RelayerCheckEntity } from './relayer-check.entity';

export function toRelayerStatusResponse(
  relayer: RelayerSnapshot,
  check: RelayerCheckEntity | null,
  threshold: string | null,
): RelayerStatusResponse {
  return {
    network_type: relayer.networkType,
    balance: check?.balance ?? '0',
    paused: relayer.paused,
    system_disabled: relayer.systemDisabled,
    pending_transactions_count: 0,
    last_confirmed_transaction_timestamp: null,
    ...(relayer.networkType === 'evm' ? { nonce: check?.nonce ?? '0' } : {}),
    ...(relayer.networkType === 'stellar' ? { sequence_number: check?.sequenceNumber ?? '0' } : {}),
    checked_at: check?.checkedAt?.toISOString() ?? null,
    // docs/reference/balance-alerts.md#5-status: the last check's comparison; null without a threshold or a check.
    low_balance: threshold === null || !check?.checkedAt ? null : check.balanceLow,
  };
}
