import { Module } from '@nestjs/common';
import { UsersRepository } from './users.repository';

/** The users table's repository: the console's logins, the admin API's users routes, the access guard. */
@Module({ providers: [UsersRepository], exports: [UsersRepository] })
export class UsersModule {}
