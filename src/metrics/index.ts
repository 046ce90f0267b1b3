// The metrics' public face: what other features and extensions import (docs/architecture.md).
export { MetricsService } from './metrics.service';
