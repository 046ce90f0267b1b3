import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { EVENT_LISTENER_METADATA, type OnEventMetadata } from '@nestjs/event-emitter';

type Listener = (this: object, ...args: unknown[]) => unknown;

/** On a wrapper: already made safe (an instance met twice, as a provider and under an alias). */
const SAFE = Symbol('safe-subscriber');

/** The payloads Transactions hands to `<name>.committing` subscribers, and those it publishes after commit. */
const committingPayloads = new WeakSet<object>();
const committedPayloads = new WeakSet<object>();

/** The runs of the `.committing` subscribers each such payload was handed, until they are done. */
const committingRuns = new WeakMap<object, Array<Promise<unknown>>>();

/** A subscriber of it that fails rolls the change back. */
export function markCommitting<T extends object>(payload: T): T {
  committingPayloads.add(payload);
  committingRuns.set(payload, []);
  return payload;
}

/**
 * Once every `.committing` subscriber handed `payload` is done, failed or not: a change is rolled
 * back only then, so that no subscriber still at work writes with the transaction's manager after
 * the rollback (on SQLite such a write would stand on its own).
 */
export async function committingSettled(payload: object): Promise<void> {
  await Promise.allSettled(committingRuns.get(payload) ?? []);
}

/** A subscriber of it that fails is logged: the change is committed. */
export function markCommitted<T extends object>(payload: T): T {
  committedPayloads.add(payload);
  return payload;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Makes every `@OnEvent` method fail safely, whatever its options (docs/reference/extension-events.md#2-subscriber-failures).
 * `EventSubscribersLoader` subscribes `instance[method]` with the options found on it, on application
 * bootstrap; before that (module init), each such method is replaced on its instance by a wrapper that
 * runs in line and carries the same events with `suppressErrors: false` and no deferral. The wrapper
 * lets the failure of a `.committing` subscriber reach `Transactions`, which rolls the change back, and
 * logs the failure of an after-commit subscriber. For events the service does not publish, it keeps
 * what the options asked (deferred, errors logged unless `suppressErrors: false`).
 */
@Injectable()
export class SafeSubscribers implements OnModuleInit {
  private readonly logger = new Logger('Events');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance: unknown = wrapper.instance;
      if (!isObject(instance) || wrapper.isAlias) continue;
      const prototype = (Object.getPrototypeOf(instance) as object | null) ?? {};
      for (const method of this.scanner.getAllMethodNames(prototype)) this.wrap(instance, method);
    }
  }

  private wrap(instance: object, method: string): void {
    const target = instance as Record<string, unknown>;
    const original = target[method];
    if (typeof original !== 'function') return;
    const found: unknown = Reflect.getMetadata(EVENT_LISTENER_METADATA, original);
    if (found === undefined || Reflect.hasOwnMetadata(SAFE, original)) return;
    const entries = (Array.isArray(found) ? found : [found]) as OnEventMetadata[];
    const listener = original as Listener;
    const name = `${instance.constructor.name}.${method}`;
    const deferred = entries.some(({ options }) => options?.async === true || options?.nextTick === true);
    const rethrows = entries.every(({ options }) => options?.suppressErrors === false);
    const logger = this.logger;
    const failed = (error: unknown, after = ''): void => {
      logger.error({ err: error }, `the event subscriber ${name} failed${after}`);
    };

    const safe = function (this: object, ...args: unknown[]): unknown {
      const [payload] = args;
      if (isObject(payload) && committingPayloads.has(payload)) {
        // A throw becomes a rejection, so that the subscribers after it run too (committingSettled).
        const running = new Promise<unknown>((resolve) => resolve(listener.apply(this, args)));
        committingRuns.get(payload)?.push(running);
        return running;
      }
      // Called now; a throw becomes a rejection.
      const run = () => new Promise<unknown>((resolve) => resolve(listener.apply(this, args)));
      if (isObject(payload) && committedPayloads.has(payload)) {
        return run().catch((error: unknown) => failed(error, ' after commit: the change stays committed'));
      }
      if (deferred) {
        setImmediate(() => void run().catch((error: unknown) => failed(error)));
        return undefined;
      }
      return rethrows ? run() : run().catch((error: unknown) => failed(error));
    };
    Reflect.defineMetadata(
      EVENT_LISTENER_METADATA,
      entries.map(({ event, options }) => ({
        event,
        options: { ...options, async: false, nextTick: false, promisify: false, suppressErrors: false },
      })),
      safe,
    );
    Reflect.defineMetadata(SAFE, true, safe);
    target[method] = safe;
  }
}
