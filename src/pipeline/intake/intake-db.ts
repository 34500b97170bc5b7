// The intake's own Postgres pool. Action jobs hold connections while they own a contact (and,
// today, while they wait for CRM budget): were the intake to share their pool, a busy worker
// could starve it into 503s. A small pool of its own keeps deliveries committing.
// Its sessions commit synchronously (the app's pool does not, src/persistence/schema/data-source.ts): the inbox
// insert is then one autocommit statement, one round trip instead of BEGIN/SET LOCAL/INSERT/COMMIT.
import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { dataSourceOptions } from '../../persistence/schema/data-source';

export const INTAKE_DB = Symbol('INTAKE_DB');

export const intakeDbProvider: Provider = {
  provide: INTAKE_DB,
  inject: [APP_CONFIG],
  useFactory: async (config: AppConfig) => {
    const options = dataSourceOptions(config.databaseUrl);
    const db = new DataSource({
      ...options,
      extra: {
        ...(options as { extra?: object }).extra,
        max: config.intakeDbPoolSize,
        options: '-c synchronous_commit=on',
        application_name: 'crm-rules-intake',
      },
    } as typeof options);
    return db.initialize();
  },
};
