import { SetMetadata } from '@nestjs/common';

export const NO_BODY = 'http:noBody';

export const NoBody = (): MethodDecorator => SetMetadata(NO_BODY, true);

export const OPTIONAL_BODY = 'http:optionalBody';

/** The body may be left out (read as `{}`); when sent, it is read and checked as any body. */
export const OptionalBody = (): MethodDecorator => SetMetadata(OPTIONAL_BODY, true);
