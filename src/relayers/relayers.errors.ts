import { ConflictError, NotFoundError, ValidationError } from '../common/errors/domain-errors';

export const relayerNotFound = (id: string) => new NotFoundError(`Relayer with ID ${id} not found`);

export const duplicateRelayer = () => new ConflictError('Relayer with this ID already exists');

export const signerNotFound = (id: string) => `Signer with ID ${id} not found`;

/** The key's curve decides the network types (docs/reference/kms-signers.md#12-the-curve-decides-the-network-types). */
export const signerCannotSign = (id: string, type: string, signsFor: readonly string[]) =>
  `signer_id must name a signer that can sign for ${type} networks (signer '${id}' signs for ${signsFor.join(', ')})`;

export const notificationNotFound = (id: string) =>
  new ValidationError(`Notification with ID ${id} not found`);
