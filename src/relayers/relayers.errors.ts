import { ConflictError, NotFoundError, ValidationError } from '../common/errors/domain-errors';

export const relayerNotFound = (id: string) => new NotFoundError(`Relayer with ID ${id} not found`);

export const duplicateRelayer = () => new ConflictError('Relayer with this ID already exists');

/** A problem of the body (400): its `signer_id` names no signer. Not signers' `signerNotFound` (404). */
export const unknownSigner = (id: string): string => `Signer with ID ${id} not found`;

/** The key's curve decides the network types (docs/reference/kms-signers.md#12-the-curve-decides-the-network-types). */
export const signerCannotSign = (id: string, type: string, signsFor: readonly string[]) =>
  `signer_id must name a signer that can sign for ${type} networks (signer '${id}' signs for ${signsFor.join(', ')})`;

/** The signer was deleted since the body was checked: the answer as if it had never been. */
export const signerGone = (id: string) => new ValidationError(unknownSigner(id));

/** `user` null: a relayer outside the caller's scope, which is not named (docs/reference/keys-and-audit.md#3-relayer-scope). */
export const signerUsedOnNetwork = (signerId: string, user: string | null, type: string, network: string) =>
  new ValidationError(
    `Signer with ID ${signerId} is already used by ${user === null ? 'another relayer' : `relayer ${user}`} on ${type} network '${network}'`,
  );

export const notificationMissing = (id: string) => `Notification with ID ${id} not found`;

/**
 * The body's `notification_id` names no notification (deleted since the body was checked: the foreign
 * key refused the write): a 400, not notifications' `notificationNotFound` (404).
 */
export const unknownNotification = (id: string): ValidationError =>
  new ValidationError(notificationMissing(id));
