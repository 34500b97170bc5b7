// Fixture: breaks cli-imports-no-nest.
import { Module } from '@nestjs/common';

@Module({})
export class CommandModule {}
