import { Module } from '@nestjs/common';
import { ConsoleSessionsPruner } from './console-sessions-pruner';
import { ConsoleSessionsRepository } from './console-sessions.repository';

/** The session table's repository, for the console (login, every request, logout) and retention. */
@Module({
  providers: [ConsoleSessionsRepository, ConsoleSessionsPruner],
  exports: [ConsoleSessionsRepository],
})
export class ConsoleSessionsModule {}
