import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { IS_PUBLIC, PUBLIC_RATE_LIMITED } from '../auth/public.decorator';

/**
 * docs/reference/rate-limits.md; after the auth guard, so that only authenticated requests count, and
 * the public routes that write (PublicRateLimited), by client address.
 */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const skipped =
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true &&
      this.reflector.getAllAndOverride<boolean>(PUBLIC_RATE_LIMITED, targets) !== true;
    return Promise.resolve(skipped);
  }
}
