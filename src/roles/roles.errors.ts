import { ConflictError, NotFoundError } from '../common/errors/domain-errors';

export const roleNotFound = (): NotFoundError => new NotFoundError('Role not found');
export const duplicateRole = (): ConflictError => new ConflictError('Role with this ID already exists');
