// The plain JavaScript variant: the service installed as a package, one module added to it.
// `node extension.js` listens on PORT (default 3000); the test starts it with start(env).
'use strict';
const { Controller, Get, HttpCode, Inject, Injectable, Module } = require('@nestjs/common');
const { OnEvent } = require('@nestjs/event-emitter');
const {
  createApp,
  loadConfig,
  RELAYER_EVENTS,
  RelayersModule,
  RequirePermission,
} = require('relayer-management-service');

/** Keeps the ids of the relayers created since the start (heard after each commit). */
class CreatedRelayers {
  constructor() {
    this.ids = [];
  }

  created(event) {
    this.ids.push(event.relayer.id);
  }
}
Injectable()(CreatedRelayers);
decorateMethod(CreatedRelayers, 'created', OnEvent(RELAYER_EVENTS.created));

/** GET /api/v1/ext/ping: behind the API key, rate limited and enveloped like the service's own routes. */
class PingController {
  constructor(created) {
    this.createdRelayers = created;
  }

  ping() {
    return { pong: true, relayers_created: this.createdRelayers.ids };
  }
}
Controller('ext')(PingController);
Inject(CreatedRelayers)(PingController, undefined, 0);
decorateMethod(PingController, 'ping', Get('ping'), HttpCode(200), RequirePermission('ext:ping'));

class ExtensionModule {}
Module({ imports: [RelayersModule], controllers: [PingController], providers: [CreatedRelayers] })(
  ExtensionModule,
);

/** What TypeScript's `@decorator` on a method does, written out. */
function decorateMethod(target, name, ...decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(target.prototype, name);
  for (const decorate of decorators.reverse()) decorate(target.prototype, name, descriptor);
}

/** The application with the module and its permission, listening on the config's host and port. */
async function start(env) {
  const config = loadConfig(env);
  const app = await createApp(config, { imports: [ExtensionModule], permissions: ['ext:ping'] });
  await app.listen(config.http.port, config.http.host);
  return app;
}

module.exports = { ExtensionModule, start };

if (require.main === module) {
  start(process.env).catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
