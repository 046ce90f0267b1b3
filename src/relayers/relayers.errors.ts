import { ConflictError, NotFoundError, ValidationError } from '../common/errors/domain-errors';

export const relayerNotFound = (id: string) => new NotFoundError(`Relayer with ID ${id} not found`);

export const duplicateRelayer = () => new ConflictError('Relayer with this ID already exists');

export const signerNotFound = (id: string) => `Signer with ID ${id} not found`;

export const notificationNotFound = (id: string) =>
  new ValidationError(`Notification with ID ${id} not found`);
