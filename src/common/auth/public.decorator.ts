import { applyDecorators, SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:isPublic';

/** Opts a route out of authentication and rate limiting. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

export const PUBLIC_RATE_LIMITED = 'auth:publicRateLimited';

/**
 * Opts a route out of authentication only: the client address's rate limit still applies (the
 * sign-in's routes, which anyone may call and which write).
 */
export const PublicRateLimited = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(IS_PUBLIC, true), SetMetadata(PUBLIC_RATE_LIMITED, true));
