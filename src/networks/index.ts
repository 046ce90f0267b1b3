// The networks' public face: what other features and extensions import (docs/architecture.md).
export { NetworksService } from './networks.service';
export { networkNotFound } from './networks.errors';
