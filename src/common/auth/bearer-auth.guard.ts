import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { UnauthorizedError } from '../errors/domain-errors';
import { RequestContext } from '../http/request-context';
import { ADMIN } from './principal';
import { ApiKeyVerifier } from './api-key-verifier';
import { IS_PUBLIC } from './public.decorator';

/** Global guard: every route needs the API key unless it is marked @Public(). */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const request = context.switchToHttp().getRequest<Request>();
    if (this.verifier.verify(request.headers, request.rawHeaders) === null) throw new UnauthorizedError();
    const scope = RequestContext.current();
    if (scope) scope.principal = ADMIN;
    return true;
  }
}
