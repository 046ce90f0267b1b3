import { NotFoundError } from '../common/errors/domain-errors';

export const networkNotFound = (id: string): NotFoundError =>
  new NotFoundError(`Network with ID '${id}' not found`);
