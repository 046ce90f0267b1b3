import type { RelayerResponse } from './dto/relayer.dto';

/** Published after commit, and as `<name>.committing` in the transaction (docs/reference/extension-events.md). */
export const RELAYER_EVENTS = {
  created: 'relayer.created',
  updated: 'relayer.updated',
  deleted: 'relayer.deleted',
  stateChanged: 'relayer.state_changed',
  /** A health check found the balance below the alert threshold (docs/reference/balance-alerts.md). */
  balanceLow: 'relayer.balance_low',
  /** A health check found the balance back at or above the alert threshold. */
  balanceRestored: 'relayer.balance_restored',
} as const;

/** The fields a PATCH may set, by the names `changed` lists. */
export const PATCHABLE_FIELDS = ['custom_rpc_urls', 'name', 'notification_id', 'paused', 'policies'] as const;
export type PatchableField = (typeof PATCHABLE_FIELDS)[number];

export interface RelayerEvent {
  /** The relayer as GET would answer it at that moment (for a delete: its last state). */
  readonly relayer: RelayerResponse;
}

export interface RelayerUpdatedEvent extends RelayerEvent {
  /** Sorted names of the fields that changed. */
  readonly changed: PatchableField[];
}

/** A health check disabled (`disabled`) or re-enabled (`enabled`) the relayer. */
export interface RelayerStateChangedEvent extends RelayerEvent {
  readonly state: 'disabled' | 'enabled';
  /** The `details` of the disabled reason. */
  readonly disableReason?: string;
  /** Checks that failed before this one passed. */
  readonly retryCount?: number;
}

/** A balance crossed the relayer's alert threshold: once per crossing, across instances. */
export interface RelayerBalanceEvent extends RelayerEvent {
  /** What the check read, in the base unit, as a decimal string. */
  readonly balance: string;
  /** The threshold it was compared with, as a decimal string. */
  readonly threshold: string;
}

declare module '../database/on-committing' {
  interface CommittingEvents {
    [RELAYER_EVENTS.created]: RelayerEvent;
    [RELAYER_EVENTS.updated]: RelayerUpdatedEvent;
    [RELAYER_EVENTS.deleted]: RelayerEvent;
    [RELAYER_EVENTS.stateChanged]: RelayerStateChangedEvent;
    [RELAYER_EVENTS.balanceLow]: RelayerBalanceEvent;
    [RELAYER_EVENTS.balanceRestored]: RelayerBalanceEvent;
  }
}
