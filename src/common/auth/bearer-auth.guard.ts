import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/domain-errors';
import { RequestContext } from '../http/request-context';
import { Authenticator } from './authenticator';
import { grants, type ExtensionPermission, type Permission, type Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';
import { OWN_KEY_PARAMETER, REQUIRED_PERMISSION } from './require-permission.decorator';
import { expiryHeader } from './expiry-header';

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
    const request = context.switchToHttp().getRequest<Request>();
    const principal = await this.authenticator.authenticate(request);
    if (principal === null) throw new UnauthorizedError();
    expiryHeader(principal, context.switchToHttp().getResponse<Response>());
    const scope = RequestContext.current();
    if (scope) scope.principal = principal;
    const required = this.reflector.get<readonly (Permission | ExtensionPermission)[] | undefined>(
      REQUIRED_PERMISSION,
      context.getHandler(),
    );
    const allowed =
      required === undefined ? principal.type === 'admin' : required.every((p) => grants(principal, p));
    if (!allowed && !this.isTheKeyItself(context, request, principal)) throw new ForbiddenError();
    return true;
  }

  /** A route marked OrTheKeyItself, called by the key its path names. */
  private isTheKeyItself(context: ExecutionContext, request: Request, principal: Principal): boolean {
    const parameter = this.reflector.get<string | undefined>(OWN_KEY_PARAMETER, context.getHandler());
    return (
      parameter !== undefined && principal.type === 'api_key' && request.params[parameter] === principal.id
    );
  }
}
