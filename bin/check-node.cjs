// The Node this package needs (package.json "engines"), checked before any of the service's modules
// loads: on an older Node its native modules, built for the newer one, would crash the process
// instead of saying why. CommonJS with nothing newer than Node 12 in it, so any Node can run it.
'use strict';
const { engines, name } = require('../package.json');

const needed = Number(/\d+/.exec(engines.node)[0]);
const running = process.versions.node;

/** Throws, naming both versions, when this Node is older than the one the package needs. */
function checkNode() {
  if (Number(running.split('.')[0]) >= needed) return;
  const error = new Error(`${name} needs Node ${needed} or newer; this is Node ${running}`);
  error.code = 'ERR_NODE_VERSION';
  throw error;
}

module.exports = { checkNode };
