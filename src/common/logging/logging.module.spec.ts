import { loadConfig } from '../../config/app-config';
import { chooseLogFormat } from './logging.module';

const KEY = 'k'.repeat(32);

describe('chooseLogFormat', () => {
  it.each([
    [{}, true, 'pretty'],
    [{}, false, 'json'],
    [{ NODE_ENV: 'production' }, true, 'json'],
    [{ LOG_FILE: '/tmp/service.log' }, true, 'json'],
    [{ LOG_FORMAT: 'json' }, true, 'json'],
    [{ LOG_FORMAT: 'pretty' }, false, 'pretty'],
    [{ LOG_FORMAT: 'PRETTY', NODE_ENV: 'production' }, false, 'pretty'],
    [{ LOG_FORMAT: 'pretty', LOG_FILE: '/tmp/service.log' }, false, 'pretty'],
  ])('%j with stdout a terminal: %s gives %s', (env, stdoutIsTty, expected) => {
    expect(chooseLogFormat(loadConfig({ API_KEY: KEY, ...env }), stdoutIsTty)).toBe(expected);
  });
});
