import { Module } from '@nestjs/common';
import { RuleSetService } from './rule-set.service';

/** The running rule set (load, hot reload). Needs APP_CONFIG (ConfigModule is global). */
@Module({ providers: [RuleSetService], exports: [RuleSetService] })
export class RuleSetModule {}
