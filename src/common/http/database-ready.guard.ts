import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DatabaseLifecycle } from '../../database/database-lifecycle.service';
import { IS_PUBLIC } from '../auth/public.decorator';
import { ServiceUnavailableError } from '../errors/domain-errors';

const DATABASE_OPTIONAL = 'database:optional';

/** The route works without the database (metrics), so it is not refused while the database is away. */
export const DatabaseOptional = (): MethodDecorator => SetMetadata(DATABASE_OPTIONAL, true);

/** Answers 503 at once while the database has not been reached yet, instead of failing in the driver. */
@Injectable()
export class DatabaseReadyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: DatabaseLifecycle,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.database.isReady) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]))
      return true;
    throw new ServiceUnavailableError();
  }
}
