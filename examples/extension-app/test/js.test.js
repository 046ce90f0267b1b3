'use strict';
// The plain JavaScript variant (extension.js).
require('./suite').runSuite('plain JavaScript', require('../extension'));
