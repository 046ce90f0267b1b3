import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/domain-errors';
import { RequestContext } from '../http/request-context';
import { Authenticator } from './authenticator';
import { grants, type ExtensionPermission, type Permission } from './principal';
import { IS_PUBLIC } from './public.decorator';
import { REQUIRED_PERMISSION } from './require-permission.decorator';

/** A route without @RequirePermission is the administrator's alone. */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const principal = await this.authenticator.authenticate(context.switchToHttp().getRequest<Request>());
    if (principal === null) throw new UnauthorizedError();
    const scope = RequestContext.current();
    if (scope) scope.principal = principal;
    const required = this.reflector.get<readonly (Permission | ExtensionPermission)[] | undefined>(
      REQUIRED_PERMISSION,
      context.getHandler(),
    );
    const allowed =
      required === undefined ? principal.type === 'admin' : required.every((p) => grants(principal, p));
    if (!allowed) throw new ForbiddenError();
    return true;
  }
}
