import { NotFoundError } from '../common/errors/domain-errors';

export const notificationNotFound = (): NotFoundError => new NotFoundError('Notification not found');
