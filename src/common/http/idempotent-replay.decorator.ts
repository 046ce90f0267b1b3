import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENT_REPLAY_OMITS = 'idempotency:replayOmits';

/**
 * Fields of `data` (a secret shown once) left out of the answer stored for an Idempotency-Key, and
 * so of every replay: a client whose first answer was lost still learns the resource's id.
 */
export const IdempotentReplayOmits = (...fields: string[]): MethodDecorator =>
  SetMetadata(IDEMPOTENT_REPLAY_OMITS, fields);
