// The TypeScript variant of extension.js, grown into the tutorial of docs/extending.md: the ping module,
// the notes module (its own table and migration, a route with its own permissions, a subscriber in the
// relayer's transaction that may veto it, one after commit) and a replaced part of the service (the EVM
// health check). Type-checked strictly against the package's types (npm run build).
import { Controller, Get, HttpCode, Injectable, Module, type INestApplication } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  createApp,
  EVM_HEALTH_CHECK,
  loadConfig,
  RELAYER_EVENTS,
  RelayersModule,
  RequirePermission,
  type Env,
  type RelayerEvent,
} from 'relayer-management-service';
import { BalanceOnlyEvmCheck } from './balance-only-check';
import { CreateExtNotes1900000000000, NotesModule } from './notes/notes.module';

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

/**
 * The application with both modules, the ping permission (the notes module declares its resource
 * itself), the notes migration and the replaced check, listening on the config's host and port.
 * NOTES_CHAT_URL, when set, is where the after-commit subscriber announces new relayers.
 */
export async function start(env: Env): Promise<INestApplication> {
  const config = loadConfig(env);
  const app = await createApp(config, {
    imports: [ExtensionModule, NotesModule.register({ chatUrl: env.NOTES_CHAT_URL ?? null })],
    permissions: ['ext:ping'],
    migrations: [CreateExtNotes1900000000000],
    overrides: [{ provide: EVM_HEALTH_CHECK, useClass: BalanceOnlyEvmCheck }],
  });
  await app.listen(config.http.port, config.http.host);
  return app;
}

if (require.main === module) {
  start(process.env).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
