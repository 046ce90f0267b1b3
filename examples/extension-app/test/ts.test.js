'use strict';
// The TypeScript variant, compiled by `npm run build` (src/extension.ts to dist/).
require('./suite').runSuite('TypeScript', require('../dist/extension'));
