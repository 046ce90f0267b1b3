import { MAX_USERS_NAMED } from '../common/references/reference-registry';
import { ConflictError, NotFoundError } from '../common/errors/domain-errors';

export const deliveryNotFound = (): NotFoundError => new NotFoundError('Delivery not found');

/**
 * docs/reference/webhooks.md#65-how-many-targets-may-hear-a-relayer: the relayers a change would make
 * heard by more than `max` targets, sorted, at most MAX_USERS_NAMED of them named (as a 409 of a
 * resource in use names its users), then how many more; `*` for every relayer.
 */
export function tooManyTargets(max: number, relayerIds: Iterable<string>): ConflictError {
  const sorted = [...new Set(relayerIds)].sort();
  const named = sorted.slice(0, MAX_USERS_NAMED).join(', ');
  const more = sorted.length - MAX_USERS_NAMED;
  return new ConflictError(
    `More than ${max} targets would hear relayers: ${named}${more > 0 ? `; and ${more} more` : ''}`,
  );
}

/** docs/reference/webhooks.md#71-queuing-a-targets-deliveries-again: one replay of a target at a time. */
export function replayInProgress(pending: number): ConflictError {
  return new ConflictError(
    `Replay in progress: ${pending} ${pending === 1 ? 'delivery' : 'deliveries'} pending`,
  );
}
