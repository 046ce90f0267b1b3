// The balance alerts' public face: what other features and extensions import (docs/architecture.md).
export {
  BalanceAlertsService,
  type AlertedRelayer,
  type ThresholdChange,
  type ThresholdComparison,
} from './balance-alerts.service';
export { isBelowThreshold } from './threshold';
export type { BalanceAlertResponse } from './dto/balance-alert.dto';
