import { ForbiddenError, NotFoundError, withStatus } from '../common/errors/domain-errors';

/** A refused callback (docs/access.md#signing-in-with-your-identity-provider): nothing started. */
export class SignInFailedError extends withStatus(400, 'Bad Request') {
  constructor(reason: string) {
    super(`Sign-in failed: ${reason}`);
  }
}

export const noRole = (who: string): ForbiddenError => new ForbiddenError(`No role grants ${who} access`);
export const sessionNotFound = (): NotFoundError => new NotFoundError('Session not found');
export const signInNotConfigured = (): NotFoundError =>
  new NotFoundError('Sign-in with an identity provider is not configured');
