import { RequestContext } from '../http/request-context';
import { PollingLoop } from './polling-loop';

describe('PollingLoop', () => {
  it('runs a round woken by a request outside that request’s context (its key and relayer scope)', async () => {
    const seen: Array<RequestContext | undefined> = [];
    let rounds = 0;
    const loop = new PollingLoop(
      'test',
      () => {
        rounds += 1;
        seen.push(RequestContext.current());
        return Promise.resolve();
      },
      60_000,
    );
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await RequestContext.runAs({ type: 'api_key', id: 'k', name: 'scoped' }, async () => {
      expect(RequestContext.current()).toBeDefined(); // the control: the waker has a context
      loop.wake();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await loop.stop();
    expect({ rounds, seen }).toEqual({ rounds: 2, seen: [undefined, undefined] });
  });
});
