// The relayers' public face: what other features and extensions import (docs/architecture.md).
export { relayerNotFound } from './relayers.errors';
export { CreateRelayerDto } from './dto/relayer.dto';
export { RelayerCreateRules, RelayerPatchRules } from './relayers.validation';
export type { DisabledReason } from './relayer.entity';
export { RelayersService } from './relayers.service';
export type { IncludedStatus, RelayerStatusSource } from './relayer-status-source';
