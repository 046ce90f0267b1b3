import { NotFoundError } from '../common/errors/domain-errors';

export const apiKeyNotFound = (): NotFoundError => new NotFoundError('API key not found');
