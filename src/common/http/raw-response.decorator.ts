import { SetMetadata } from '@nestjs/common';

export const RAW_RESPONSE = 'http:rawResponse';

/** Outside the envelope. */
export const RawResponse = (): MethodDecorator => SetMetadata(RAW_RESPONSE, true);
