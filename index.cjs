// The package's entry (package.json "main" and "exports"): checks the Node version first, then
// hands over the service's public API (dist/src/index.js, typed by dist/types/src/index.d.ts).
'use strict';
require('./bin/check-node.cjs').checkNode();
module.exports = require('./dist/src/index.js');
