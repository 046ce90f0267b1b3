import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DatabaseLifecycle } from '../../database/database-lifecycle.service';
import { IS_PUBLIC } from '../auth/public.decorator';
import { ServiceUnavailableError } from '../errors/domain-errors';

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
