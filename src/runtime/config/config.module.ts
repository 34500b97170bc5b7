import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from './app-config';
import { ENGINE_CLOCK, offsetClock } from './engine-clock';

/**
 * Hands the already-validated config to every module, and the engine clock it sets
 * (ENGINE_CLOCK_OFFSET_MS), one for the whole process. main.ts validates before Nest starts.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: ENGINE_CLOCK, useValue: offsetClock(config.engineClockOffsetMs) },
      ],
      exports: [APP_CONFIG, ENGINE_CLOCK],
    };
  }
}
