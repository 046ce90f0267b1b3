import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENT_REPLAY_OMITS = 'idempotency:replayOmits';

/** Secrets shown once, left out of the stored answer: a replay still tells the resource's id. */
export const IdempotentReplayOmits = (...fields: string[]): MethodDecorator =>
  SetMetadata(IDEMPOTENT_REPLAY_OMITS, fields);
