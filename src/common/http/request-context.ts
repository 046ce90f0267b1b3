import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../auth/principal';

/** The request's id and principal (set by the auth guard), for code not handed the request. */
export class RequestContext {
  private static readonly storage = new AsyncLocalStorage<RequestContext>();
  principal: Principal | null = null;
  /** Who changes things outside a request (the configuration file at start), for the audit trail. */
  actor: { readonly type: string; readonly id: string | null; readonly name: string } | null = null;

  private constructor(readonly requestId: string) {}

  static current(): RequestContext | undefined {
    return RequestContext.storage.getStore();
  }

  static runAs<T>(actor: NonNullable<RequestContext['actor']>, work: () => Promise<T>): Promise<T> {
    const context = new RequestContext('');
    context.actor = actor;
    return RequestContext.storage.run(context, work);
  }

  static readonly middleware = (req: Request, _res: Response, next: NextFunction): void => {
    const id = typeof req.id === 'string' || typeof req.id === 'number' ? String(req.id) : '';
    RequestContext.storage.run(new RequestContext(id), next);
  };
}
