import { SetMetadata } from '@nestjs/common';

export const NO_BODY = 'http:noBody';

export const NoBody = (): MethodDecorator => SetMetadata(NO_BODY, true);
