import { Injectable } from '@nestjs/common';

/** Whether the process is draining for shutdown; readiness reports it so balancers stop sending. */
@Injectable()
export class LifecycleState {
  private drainingSince: Date | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(): void {
    this.drainingSince ??= new Date();
  }
}
