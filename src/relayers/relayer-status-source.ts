import type { RelayerEntity } from './relayer.entity';

/** What `include=status` adds to a relayer of the list: its `status` and its `balance_alert`. */
export interface IncludedStatus {
  /** As GET /api/v1/relayers/{relayer_id}/status answers it (src/relayer-health). */
  readonly status: object;
  /** As GET /api/v1/relayers/{relayer_id}/balance-alert answers it (src/balance-alerts). */
  readonly balance_alert: object;
}

/**
 * Where the list's `include=status` comes from (docs/reference/relayers.md#36-the-status-of-each-item). The
 * relayer health answers a relayer's status and imports this feature, so it registers itself at start
 * (RelayersService.registerStatusSource), as the users of notifications and signers register with them;
 * the list passes on what it gives without reading it.
 */
export interface RelayerStatusSource {
  /**
   * By relayer id, an entry for each of `relayers` (a page of the list, as the request's key may see
   * it), in a number of statements that does not grow with the page.
   */
  statusesOf(relayers: readonly RelayerEntity[]): Promise<ReadonlyMap<string, IncludedStatus>>;
}
