import { timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/domain-errors';
import { RequestContext } from '../http/request-context';
import { Authenticator } from './authenticator';
import { forRoute, grants, type ExtensionPermission, type Permission, type Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';
import { OWN_KEY_PARAMETER, REQUIRED_PERMISSION } from './require-permission.decorator';
import { expiryHeader } from './expiry-header';

/** Routes that change nothing: the only ones a replaced secret may call. */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * docs/reference/keys-and-audit.md#42-rotation: during a rotation's overlap the old secret is for
 * reading while the clients move to the new one; a leaked old secret must not mint, rotate or revoke.
 */
const REPLACED_SECRET_WRITES = 'Forbidden: a replaced secret cannot make changes; use the new key';

/** docs/access.md#sessions-and-csrf: a page of another site can make the browser send the cookie, never this header. */
const CSRF_REFUSED = 'Forbidden: a request signed in with a session cookie must carry its X-CSRF-Token';

function csrfMatches(header: string | string[] | undefined, expected: string): boolean {
  if (typeof header !== 'string' || header.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

/**
 * A route without @RequirePermission is the administrator's alone. Every route goes through here,
 * an added module's too: what holds for every route (a replaced secret only reads) is decided here.
 */
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
    const authenticated = await this.authenticator.authenticate(request);
    if (authenticated === null) throw new UnauthorizedError();
    expiryHeader(authenticated, context.switchToHttp().getResponse<Response>());
    const required = this.reflector.get<readonly (Permission | ExtensionPermission)[] | undefined>(
      REQUIRED_PERMISSION,
      context.getHandler(),
    );
    // What the request is served as: a person's roles that grant what the route needs.
    const principal = forRoute(authenticated, required);
    const scope = RequestContext.current();
    if (scope) scope.principal = principal;
    if (principal.replacedSecret && !READ_METHODS.has(request.method)) {
      throw new ForbiddenError(REPLACED_SECRET_WRITES);
    }
    const { session } = principal;
    if (
      session &&
      !READ_METHODS.has(request.method) &&
      !csrfMatches(request.headers['x-csrf-token'], session.csrfToken)
    ) {
      throw new ForbiddenError(CSRF_REFUSED);
    }
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
