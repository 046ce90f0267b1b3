#!/usr/bin/env node
// `npx relayer-service`: the service as `npm start` runs it, from an installed package. Paths are the
// package's own, never the caller's: the compiled service next to this file, whose configuration
// falls back on the shipped config/config.json (docs/extending.md). The Node version is checked first.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
try {
  require('./check-node.cjs').checkNode();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const root = path.resolve(import.meta.dirname, '..');
if (fs.existsSync('.env')) process.loadEnvFile('.env');
require(path.join(root, 'dist', 'src', 'main.js'));
