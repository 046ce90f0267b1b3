import { SetMetadata } from '@nestjs/common';

export const RAW_RESPONSE = 'http:rawResponse';

/** The handler's return value is sent as it is, outside the envelope (health and readiness only). */
export const RawResponse = (): MethodDecorator => SetMetadata(RAW_RESPONSE, true);
