import { ConflictError, NotFoundError } from '../common/errors/domain-errors';

export const signerNotFound = (id: string): NotFoundError =>
  new NotFoundError(`Signer with ID ${id} not found`);

export const duplicateSigner = (): ConflictError => new ConflictError('Signer with this ID already exists');
