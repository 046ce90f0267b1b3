import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import type { Principal } from '../common/auth/principal';
import { Public, PublicRateLimited } from '../common/auth/public.decorator';
import {
  clearCookie,
  cookieToken,
  SESSION_COOKIE,
  setCookie,
  SIGN_IN_COOKIE,
  SIGN_IN_MAX_AGE_MS,
} from '../common/auth/session-cookie';
import { ApiEnvelope, ApiErrors } from '../common/http/openapi.decorators';
import { Route } from '../common/http/route.decorator';
import type { AppConfig } from '../config/app-config';
import { CurrentSessionResponse, LogoutResponse, SignInMethodsResponse } from './dto/session.dto';
import { IdentityProvider } from './identity-provider';
import { signInNotConfigured } from './sessions.errors';
import { SessionsService } from './sessions.service';
import { Inject } from '@nestjs/common';
import { APP_CONFIG } from '../config/app-config.module';

/**
 * docs/access.md#signing-in-with-your-identity-provider: the sign-in through the identity provider
 * (authorization code with PKCE), the person's session, and its end.
 */
@ApiTags('auth')
@Controller('auth')
export class SignInController {
  private readonly maxMs: number;
  private readonly apiKeySignIn: boolean;

  constructor(
    private readonly sessions: SessionsService,
    private readonly provider: IdentityProvider,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxMs = config.signIn.sessions.maxMs;
    this.apiKeySignIn = !this.provider.configured || config.signIn.consoleApiKeySignIn;
  }

  @Get('methods')
  @Public()
  @HttpCode(200)
  @ApiEnvelope(SignInMethodsResponse, 200)
  @ApiOperation({
    description: 'How the console offers to sign in: the identity provider, the API-key form, or both.',
  })
  methods(): SignInMethodsResponse {
    const name = this.provider.name;
    return {
      oidc: name === null ? null : { name, login_url: '/api/v1/auth/login' },
      api_key: this.apiKeySignIn,
    };
  }

  @Get('login')
  @PublicRateLimited()
  @ApiOperation({
    description: 'Opened by the browser: sends it to the identity provider (authorization code with PKCE).',
  })
  @ApiFoundResponse({ description: 'To the provider’s authorization endpoint; sets the sign-in cookie' })
  @ApiErrors(404, 429, 500, 503)
  async login(@Res() response: Response): Promise<void> {
    if (!this.provider.configured) throw signInNotConfigured();
    const { state, url } = await this.sessions.beginSignIn();
    setCookie(response, SIGN_IN_COOKIE, state, { maxAgeMs: SIGN_IN_MAX_AGE_MS, sameSite: 'lax' });
    response.redirect(302, url.toString());
  }

  @Get('callback')
  @PublicRateLimited()
  @ApiOperation({
    description:
      'Where the provider sends the browser back: checks state, nonce and the ID token, then starts a session. ' +
      'A refused sign-in answers 400 `Sign-in failed: <reason>`, a person no role grants 403.',
  })
  @ApiFoundResponse({ description: 'To the console; sets the session cookie' })
  @ApiErrors(400, 403, 404, 429, 500, 503)
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (!this.provider.configured) throw signInNotConfigured();
    const browserState = cookieToken(request.headers.cookie, SIGN_IN_COOKIE);
    // Used or refused, the sign-in's cookie has served.
    clearCookie(response, SIGN_IN_COOKIE, 'lax');
    const token = await this.sessions.completeSignIn(
      new URL(request.originalUrl, 'http://callback'),
      browserState,
    );
    setCookie(response, SESSION_COOKIE, token, { maxAgeMs: this.maxMs, sameSite: 'strict' });
    response.redirect(302, this.provider.consoleUrl());
  }

  @Get('session')
  @Route({ permission: 'none', status: 200, response: CurrentSessionResponse, errors: [404] })
  @ApiOperation({
    description:
      'The signed-in person (session cookie): who, their roles, what they hold, and the CSRF token of their writes.',
  })
  session(@CurrentPrincipal() caller: Principal): Promise<CurrentSessionResponse> {
    return this.sessions.current(caller);
  }

  @Post('logout')
  @Route({ permission: 'none', status: 200, response: LogoutResponse, noBody: true, errors: [404] })
  @ApiOperation({
    description:
      "Ends the caller's session; send the browser to end_session_url to sign out at the provider too.",
  })
  async logout(
    @CurrentPrincipal() caller: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LogoutResponse> {
    await this.sessions.logout(caller);
    clearCookie(response, SESSION_COOKIE, 'strict');
    return { end_session_url: this.provider.endSessionUrl() };
  }
}
