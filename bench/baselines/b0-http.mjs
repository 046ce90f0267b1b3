// B0: the runtime's ceiling. A bare node:http server that answers GET /api/v1/health with OK.
// PORT and HOST from the environment.
import { createBaselineServer, listen } from './common.mjs';

listen(createBaselineServer({}), 'B0 node:http');
