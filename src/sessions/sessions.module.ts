import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../common/auth/auth.module';
import { Authenticator } from '../common/auth/authenticator';
import { declareResource } from '../common/auth/resources';
import { RolesModule } from '../roles/roles.module';
import { IdentityProvider } from './identity-provider';
import { SessionEntity } from './session.entity';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { SignInAttemptEntity } from './sign-in-attempt.entity';
import { SignInAttemptsRepository } from './sign-in-attempts.repository';
import { SignInController } from './sign-in.controller';

// Sign-ins, refusals and sign-outs are audited (docs/access.md#sessions-and-csrf); sessions are managed with roles:manage.
declareResource({
  name: 'session',
  permissions: ['roles:manage'],
  audited: true,
  operations: ['create', 'refuse', 'delete'],
});

/** People signing in through the identity provider, and their sessions (docs/access.md#sessions-and-csrf). */
@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity, SignInAttemptEntity]), AuthModule, RolesModule],
  controllers: [SignInController, SessionsController],
  providers: [IdentityProvider, SessionsService, SessionsRepository, SignInAttemptsRepository],
})
export class SessionsModule implements OnModuleInit {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly sessions: SessionsService,
  ) {}

  onModuleInit(): void {
    this.authenticator.useSessions(this.sessions);
  }
}
