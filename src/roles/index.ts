// The roles' public face: what other features import (docs/architecture.md).
export { RolesService, holdingOf, type Holding } from './roles.service';
