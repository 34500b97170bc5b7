import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConsoleSessionsModule } from './console-sessions.module';
import { UsersModule } from './users.module';
import { SessionPrincipals } from './session-principal.service';
import { AccessGuard } from './access.guard';
import { AccessService } from './access.service';
import { CredentialThrottle } from './credential-throttle.service';

/** Who may do what, for every process with routes: the guard on every route, the token door, the throttle. */
@Global()
@Module({
  imports: [UsersModule, ConsoleSessionsModule],
  providers: [
    AccessService,
    CredentialThrottle,
    SessionPrincipals,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [AccessService, CredentialThrottle, SessionPrincipals, UsersModule, ConsoleSessionsModule],
})
export class AccessModule {}
