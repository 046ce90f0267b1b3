import { SetMetadata } from '@nestjs/common';

export const RAW_RESPONSE = 'http:rawResponse';

export const RawResponse = (): MethodDecorator => SetMetadata(RAW_RESPONSE, true);
