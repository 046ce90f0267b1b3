import { Injectable } from '@nestjs/common';

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
