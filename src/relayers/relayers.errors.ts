import { ConflictError, NotFoundError, ValidationError } from '../common/errors/domain-errors';

export const relayerNotFound = (id: string) => new NotFoundError(`Relayer with ID ${id} not found`);

export const duplicateRelayer = () => new ConflictError('Relayer with this ID already exists');

export const signerNotFound = (id: string) => `Signer with ID ${id} not found`;

/** Contract 20: the key's curve decides the network types; the problem is the `signer_id` field's. */
export const signerCannotSign = (id: string, type: string, signsFor: readonly string[]) =>
  `signer_id must name a signer that can sign for ${type} networks (signer '${id}' signs for ${signsFor.join(', ')})`;

export const notificationNotFound = (id: string) =>
  new ValidationError(`Notification with ID ${id} not found`);
