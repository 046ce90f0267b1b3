import { createParamDecorator } from '@nestjs/common';
import { UnauthorizedError } from '../errors/domain-errors';
import { RequestContext } from '../http/request-context';
import type { Principal } from './principal';

/**
 * The principal the auth guard found for this request, for a handler whose rule depends on who
 * asks (docs/reference/hardening.md: a key grants only what it holds). A protected route always has one.
 */
export const CurrentPrincipal = createParamDecorator((_data: unknown): Principal => {
  const principal = RequestContext.current()?.principal;
  if (!principal) throw new UnauthorizedError();
  return principal;
});
