import { SetMetadata } from '@nestjs/common';

export const NO_BODY = 'http:noBody';

/**
 * A POST that takes no body (retry, test, check): an empty body is accepted with or without a
 * Content-Type, and so is `{}`; any field in it is refused by name (docs/reference/envelope-and-errors.md).
 */
export const NoBody = (): MethodDecorator => SetMetadata(NO_BODY, true);
