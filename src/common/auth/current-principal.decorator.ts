import { createParamDecorator } from '@nestjs/common';
import { UnauthorizedError } from '../errors/domain-errors';
import { RequestContext } from '../http/request-context';
import type { Principal } from './principal';

export const CurrentPrincipal = createParamDecorator((_data: unknown): Principal => {
  const principal = RequestContext.current()?.principal;
  if (!principal) throw new UnauthorizedError();
  return principal;
});
