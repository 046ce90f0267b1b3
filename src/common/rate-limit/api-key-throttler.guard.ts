import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { IS_PUBLIC } from '../auth/public.decorator';

/** docs/reference/rate-limits.md; after the auth guard, so that only authenticated requests count. */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    return Promise.resolve(this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true);
  }
}
