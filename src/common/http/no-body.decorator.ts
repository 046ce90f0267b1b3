import { SetMetadata } from '@nestjs/common';

export const NO_BODY = 'http:noBody';

/** A POST that takes no body (docs/reference/envelope-and-errors.md). */
export const NoBody = (): MethodDecorator => SetMetadata(NO_BODY, true);
