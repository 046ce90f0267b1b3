import type { NetworkType } from '../catalogue';
import type { RpcUrl } from '../common/validation/rpc-url-list';
import type { DisabledReason } from '../relayers';

/**
 * What a health check reads of a relayer: its own view, so no entity type of the relayers feature
 * crosses into this one (the relayers' rows satisfy it as they are).
 */
export interface RelayerSnapshot {
  readonly id: string;
  readonly version: number;
  readonly network: string;
  readonly networkType: NetworkType;
  readonly address: string;
  readonly paused: boolean;
  readonly systemDisabled: boolean;
  readonly disabledReason: DisabledReason | null;
  readonly customRpcUrls: readonly RpcUrl[] | null;
  readonly policies: Readonly<Record<string, unknown>> | null;
}
