import { Injectable } from '@nestjs/common';

@Injectable()
export class LifecycleState {
  /** Set on SIGTERM: readiness answers 503 so that balancers stop sending. */
  draining = false;
}
