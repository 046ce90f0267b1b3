import { SetMetadata } from '@nestjs/common';

export const IDEMPOTENT_REPLAY_OMITS = 'idempotency:replayOmits';

/**
 * For a POST whose answer holds a secret shown once (the `key` of `POST /api/v1/api-keys`): the
 * answer stored for its Idempotency-Key, and so every replay of it, leaves these fields of `data`
 * out. The first answer is unchanged; the secret never reaches the idempotency table, and a replay
 * (marked `Idempotent-Replayed: true`) says what was created without showing the secret again.
 *
 * Why leave the field out rather than refuse keys on such routes: a client whose first answer was
 * lost still learns that the resource exists and its id (and gets no second one); the secret it
 * never saw cannot be shown again by design, so it revokes that resource and makes another.
 *
 * @example
 *   @Post()
 *   @IdempotentReplayOmits('key')
 *   create(@Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> { ... }
 */
export const IdempotentReplayOmits = (...fields: string[]): MethodDecorator =>
  SetMetadata(IDEMPOTENT_REPLAY_OMITS, fields);
