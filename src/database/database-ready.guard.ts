import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ServiceUnavailableError } from '../common/errors/domain-errors';
import { DatabaseLifecycle } from './database-lifecycle';

const DATABASE_OPTIONAL = 'database:optional';

/** The route works without the database (metrics, health, readiness): not refused while it is away. */
export const DatabaseOptional = (): MethodDecorator & ClassDecorator => SetMetadata(DATABASE_OPTIONAL, true);

/** Answers 503 at once while the database has not been reached yet, instead of failing in the driver. */
@Injectable()
export class DatabaseReadyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: DatabaseLifecycle,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.database.isReady) return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(DATABASE_OPTIONAL, targets)) return true;
    throw new ServiceUnavailableError();
  }
}
