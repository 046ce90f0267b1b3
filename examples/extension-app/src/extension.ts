// The TypeScript variant of extension.js, type-checked against the package's types (npm run build).
import { Controller, Get, HttpCode, Injectable, Module, type INestApplication } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  createApp,
  loadConfig,
  RELAYER_EVENTS,
  RelayersModule,
  RequirePermission,
  type Env,
  type RelayerEvent,
} from 'relayer-management-service';

/** Keeps the ids of the relayers created since the start (heard after each commit). */
@Injectable()
export class CreatedRelayers {
  readonly ids: string[] = [];

  @OnEvent(RELAYER_EVENTS.created)
  created(event: RelayerEvent): void {
    this.ids.push(event.relayer.id);
  }
}

/** GET /api/v1/ext/ping: behind the API key, rate limited and enveloped like the service's own routes. */
@Controller('ext')
export class PingController {
  constructor(private readonly createdRelayers: CreatedRelayers) {}

  @Get('ping')
  @HttpCode(200)
  @RequirePermission('ext:ping')
  ping(): { pong: true; relayers_created: string[] } {
    return { pong: true, relayers_created: this.createdRelayers.ids };
  }
}

@Module({ imports: [RelayersModule], controllers: [PingController], providers: [CreatedRelayers] })
export class ExtensionModule {}

/** The application with the module and its permission, listening on the config's host and port. */
export async function start(env: Env): Promise<INestApplication> {
  const config = loadConfig(env);
  const app = await createApp(config, { imports: [ExtensionModule], permissions: ['ext:ping'] });
  await app.listen(config.http.port, config.http.host);
  return app;
}

if (require.main === module) {
  start(process.env).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
