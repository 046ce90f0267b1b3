import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SessionUser {
  @ApiProperty({ example: 'https://id.example.com#248289761001', description: '<issuer>#<sub>' })
  id: string;

  @ApiProperty({ example: 'ada@example.com', description: 'Their email, else preferred_username, else sub' })
  name: string;

  @ApiProperty({ nullable: true, type: String, example: 'ada@example.com' })
  email: string | null;
}

/** A session as administrators list it (GET /api/v1/sessions). */
export class SessionResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ type: SessionUser })
  user: SessionUser;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  last_used_at: string;

  @ApiProperty({ format: 'date-time', description: 'Moves on with each request (AUTH_SESSION_IDLE_MINUTES)' })
  idle_expires_at: string;

  @ApiProperty({ format: 'date-time', description: 'Fixed at sign-in (AUTH_SESSION_MAX_HOURS)' })
  expires_at: string;
}

/** GET /api/v1/auth/session: who is signed in, what they hold, and the CSRF token of their writes. */
export class CurrentSessionResponse {
  @ApiProperty({ type: SessionUser })
  user: SessionUser;

  @ApiProperty({ type: [String], example: ['ops'] })
  roles: string[];

  @ApiProperty({ type: [String], example: ['relayers:read'] })
  permissions: string[];

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description: 'The relayers they may see; null: every relayer',
  })
  relayer_ids: string[] | null;

  @ApiProperty({ description: 'Send it as X-CSRF-Token with every request that changes anything' })
  csrf_token: string;

  @ApiProperty({ format: 'date-time' })
  idle_expires_at: string;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class LogoutResponse {
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The identity provider's end-session URL to send the browser to; null when it has none",
  })
  end_session_url: string | null;
}

export class SignInProvider {
  @ApiProperty({ example: 'Keycloak', description: 'AUTH_OIDC_NAME' })
  name: string;

  @ApiProperty({ example: '/api/v1/auth/login', description: 'Where the browser goes to sign in' })
  login_url: string;
}

/** GET /api/v1/auth/methods: how the console offers to sign in. */
export class SignInMethodsResponse {
  @ApiProperty({
    nullable: true,
    type: SignInProvider,
    description: 'The identity provider, when one is configured',
  })
  oidc: SignInProvider | null;

  @ApiProperty({ description: 'Whether the console offers the API-key form (CONSOLE_API_KEY_SIGN_IN)' })
  api_key: boolean;
}
