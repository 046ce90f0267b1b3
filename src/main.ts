import { Logger } from '@nestjs/common';
import { configureHttpServer, createApp, exitGracefullyOnSignals } from './bootstrap';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';

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
  await app.listen(config.http.port, config.http.host);
  logger.log(
    `listening on http://${config.http.host}:${config.http.port}/api/v1, console at /console/ (database: ${config.database.kind})`,
  );
  if (config.auth.generated) {
    logger.warn(
      'API_KEY is not set: using a key generated for this process, shown once on stderr (never logged)',
    );
    process.stderr.write(generatedKeyNotice(config));
  }
}

/** Written to stderr directly, never through the logger, so that it cannot reach LOG_FILE. */
function generatedKeyNotice(config: AppConfig): string {
  const { host, port } = config.http;
  const reachable = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(host) ? 'localhost' : host;
  const origin = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
  const rule = '='.repeat(78);
  return [
    '',
    rule,
    ' API_KEY is not set, so this process generated a key (a new one at every start).',
    ' In another terminal, try:',
    '',
    `   export KEY=${config.auth.apiKey}`,
    `   curl -H "Authorization: Bearer $KEY" ${origin}/api/v1/relayers`,
    '',
    ' Or open the console in a browser and sign in with the key:',
    '',
    `   ${origin}/console/`,
    '',
    ' Set API_KEY (at least 32 characters) to keep one key across restarts;',
    ' with NODE_ENV=production the service refuses to start without it.',
    rule,
    '',
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) fail(error.message);
  fail(`relayer service failed to start: ${error instanceof Error ? error.message : String(error)}`);
});
