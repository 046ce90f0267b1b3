import { NotFoundError } from '../common/errors/domain-errors';

export const deliveryNotFound = (): NotFoundError => new NotFoundError('Delivery not found');
