import { uid } from '../factories';
import { useTestApp, type AppHandle, type Env, type TestApp } from './test-app';
import { waitFor } from './wait';
import { WebhookReceiver } from './webhook-receiver';

/** One entry of a target's delivery log, as GET .../deliveries answers it. */
export interface Delivery {
  [field: string]: unknown;
  id: string;
  event_id: string;
  event: string;
  status: string;
  attempts: number;
  created_at: string;
}

export interface WebhookApp {
  readonly handle: AppHandle;
  readonly receiver: WebhookReceiver;
  app(): TestApp;
  /** A notification (a fresh `hook-…` id) whose URL is the receiver's `path`; answers its id. */
  target(path: string, signingKey?: string): Promise<string>;
  /** The target's delivery log, newest first, once it holds `atLeast` deliveries and none is pending (15 s). */
  settled(notificationId: string, atLeast?: number): Promise<Delivery[]>;
}

/**
 * A describe block's app (useTestApp with `env`) and a local webhook receiver beside it, started and
 * closed with it, and the targets and delivery logs every webhook test uses.
 */
export function useWebhookApp(env: Env | (() => Env)): WebhookApp {
  const receiver = new WebhookReceiver();
  const handle = useTestApp(env);
  const app = () => handle.current;
  beforeAll(() => receiver.start());
  afterAll(() => receiver.close());
  const log = async (id: string) =>
    (await app().get(`/api/v1/notifications/${id}/deliveries?per_page=100`).expect(200)).body
      .data as Delivery[];
  return {
    handle,
    receiver,
    app,
    target: async (path, signingKey) => {
      const id = uid('hook');
      await app()
        .post('/api/v1/notifications', {
          id,
          url: receiver.url(path),
          ...(signingKey ? { signing_key: signingKey } : {}),
        })
        .expect(201);
      return id;
    },
    settled: (id, atLeast = 1) =>
      waitFor(
        `${atLeast} deliveries of ${id}, none pending`,
        async () => {
          const items = await log(id);
          return items.length >= atLeast && items.every((d) => d.status !== 'pending') && items;
        },
        { timeoutMs: 15_000, intervalMs: 25 },
      ),
  };
}
