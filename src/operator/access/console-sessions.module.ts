import { Module } from '@nestjs/common';
import { ConsoleSessionsRepository } from './console-sessions.repository';

/** The session table's repository, for the console (login, every request, logout) and retention. */
@Module({ providers: [ConsoleSessionsRepository], exports: [ConsoleSessionsRepository] })
export class ConsoleSessionsModule {}
