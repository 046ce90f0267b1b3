#!/usr/bin/env node
// `npx relayer-service`: the service as `npm start` runs it, from an installed package. Paths are the
// package's own, never the caller's: the compiled service next to this file, and the shipped
// config/config.json when CONFIG_FILE is not set and the current folder has none (docs/extending.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
if (fs.existsSync('.env')) process.loadEnvFile('.env');
if (process.env.CONFIG_FILE === undefined && !fs.existsSync(path.join('config', 'config.json'))) {
  process.env.CONFIG_FILE = path.join(root, 'config', 'config.json');
}
createRequire(import.meta.url)(path.join(root, 'dist', 'src', 'main.js'));
