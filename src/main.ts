import { Logger } from '@nestjs/common';
import { configureHttpServer, createApp, exitGracefullyOnSignals } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';

const MIN_NODE_MAJOR = 24;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MIN_NODE_MAJOR) {
    fail(
      `relayer service needs Node ${MIN_NODE_MAJOR} or newer (this is ${process.version}); run it with npm start`,
    );
  }
  const config = loadConfig(process.env);
  const app = await createApp(config);
  configureHttpServer(app, config);
  exitGracefullyOnSignals(app, config);
  const logger = new Logger('Bootstrap');
  if (config.auth.generated) {
    logger.warn(
      `API_KEY is not set: generated a random key for this process only: ${config.auth.apiKey} ` +
        '(set API_KEY to keep one across restarts; production refuses to start without it)',
    );
  }
  await app.listen(config.http.port, config.http.host);
  logger.log(
    `listening on http://${config.http.host}:${config.http.port}/api/v1 (database: ${config.database.kind})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  fail(`relayer service failed to start: ${error instanceof Error ? error.message : String(error)}`);
});
