import { Injectable, Logger, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { EventEmitter2, EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { markCommitted, markCommitting, SafeSubscribers } from './safe-subscribers';

const calls: string[] = [];

@Injectable()
class Subscribers {
  @OnEvent('thing.committing', { async: true, suppressErrors: true })
  async committing({ fail }: { fail: boolean }): Promise<void> {
    await Promise.resolve();
    calls.push('committing');
    if (fail) throw new Error('committing failed');
  }

  @OnEvent('thing.committing')
  committingSync({ fail }: { fail: boolean }): void {
    calls.push('committingSync');
    if (fail) throw new Error('committingSync failed');
  }

  @OnEvent('thing', { suppressErrors: false, async: true })
  async committed({ fail }: { fail: boolean }): Promise<void> {
    await Promise.resolve();
    calls.push('committed');
    if (fail) throw new Error('committed failed');
  }

  @OnEvent('own.strict', { suppressErrors: false })
  strict(): void {
    calls.push('strict');
    throw new Error('strict failed');
  }

  @OnEvent('own.lenient')
  lenient(): void {
    calls.push('lenient');
    throw new Error('lenient failed');
  }

  @OnEvent('own.deferred', { async: true })
  deferred(): void {
    calls.push('deferred');
    throw new Error('deferred failed');
  }
}

@Module({
  imports: [EventEmitterModule.forRoot({ wildcard: true }), DiscoveryModule],
  providers: [SafeSubscribers, Subscribers],
})
class SubscribersModule {}

describe('SafeSubscribers: what a subscriber’s failure does depends on the event, not on its options', () => {
  let events: EventEmitter2;
  let logged: jest.SpyInstance;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const app = await NestFactory.createApplicationContext(SubscribersModule, { logger: false });
    events = app.get(EventEmitter2);
    close = () => app.close();
  });
  afterAll(() => close());
  beforeEach(() => {
    calls.length = 0;
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  const messages = () => logged.mock.calls.map(([, message]) => message as unknown);

  it('a .committing payload: every subscriber runs in line, and a failure reaches the emitter', async () => {
    await expect(events.emitAsync('thing.committing', markCommitting({ fail: false }))).resolves.toHaveLength(
      2,
    );
    expect(calls.sort()).toEqual(['committing', 'committingSync']);
    calls.length = 0;
    await expect(events.emitAsync('thing.committing', markCommitting({ fail: true }))).rejects.toThrow(
      /committing(Sync)? failed/,
    );
    expect(messages()).toEqual([]);
  });

  it('an after-commit payload: the failure is logged, naming the subscriber, and the emit resolves', async () => {
    await expect(events.emitAsync('thing', markCommitted({ fail: true }))).resolves.toEqual([undefined]);
    expect({ calls, messages: messages() }).toEqual({
      calls: ['committed'],
      messages: [
        'the event subscriber Subscribers.committed failed after commit: the change stays committed',
      ],
    });
  });

  it('an event of its own: suppressErrors and async keep their meaning', async () => {
    await expect(events.emitAsync('own.strict', {})).rejects.toThrow('strict failed');
    await expect(events.emitAsync('own.lenient', {})).resolves.toEqual([undefined]);
    expect(messages()).toEqual(['the event subscriber Subscribers.lenient failed']);
    await expect(events.emitAsync('own.deferred', {})).resolves.toEqual([undefined]);
    expect(calls).toEqual(['strict', 'lenient']);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect({ calls, messages: messages() }).toEqual({
      calls: ['strict', 'lenient', 'deferred'],
      messages: [
        'the event subscriber Subscribers.lenient failed',
        'the event subscriber Subscribers.deferred failed',
      ],
    });
  });
});
