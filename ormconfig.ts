// The data source of the TypeORM CLI (npm run migration:run|revert|show|generate): the same
// options as the application, from the same DATABASE_URL; every entity file of src/.
import { DEFAULT_DATABASE_URL } from './src/config/app-config';
import { parseDatabaseUrl } from './src/config/database-url';
import { buildDataSourceOptions, ENTITY_FILES } from './src/database/data-source-options';
import { ServiceDataSource } from './src/database/service-data-source';

export default new ServiceDataSource(
  buildDataSourceOptions(parseDatabaseUrl(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL), {
    entities: [ENTITY_FILES],
  }),
);
