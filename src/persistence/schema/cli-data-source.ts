// The DataSource of the TypeORM CLI (`npm run migration:generate`). Kept apart from data-source.ts so
// that importing the options never reads the environment at module load.
import { DataSource } from 'typeorm';
import { loadConfig } from '../../runtime/config/load-config';
import { dataSourceOptions } from './data-source';

export default new DataSource(dataSourceOptions(loadConfig().databaseUrl));
