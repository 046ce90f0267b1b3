import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { IS_PUBLIC } from '../auth/public.decorator';

/**
 * Rate limit per API key (docs/reference/rate-limits.md). It runs after the auth guard, so only
 * authenticated requests count; public probes are never limited. One budget covers every route.
 */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) ===
        true,
    );
  }
}
