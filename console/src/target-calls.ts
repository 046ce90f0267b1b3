import { api, read, readCursorPage, readPage, type Schemas } from './api/client';

type TargetState = Schemas['NotificationStateResponse'];
type Stats = Schemas['DeliveryStatsResponse'];
type Series = Schemas['DeliverySeriesResponse'];
type Delivery = Schemas['DeliveryResponse'];
type DeliveryStatus = Delivery['status'];

/**
 * Where a delivery target lives: a webhook target under /notifications, an alert channel under
 * /alert-channels. The console's section of each has the same name.
 */
const PREFIXES = {
  notifications: '/api/v1/notifications/{notification_id}',
  'alert-channels': '/api/v1/alert-channels/{channel_id}',
} as const;

export type TargetKind = keyof typeof PREFIXES;

/**
 * What the console reads and does on a delivery target: its state, pause and resume, a test, stats
 * and the hourly series, the delivery log, retry and replay. Webhook targets and alert channels share
 * these routes and their answers, under their own prefix.
 */
export interface TargetCalls {
  readonly kind: TargetKind;
  readonly id: string;
  /** Its console page's segments (`['alert-channels', 'ops-slack']`). */
  readonly page: readonly string[];
  state(): Promise<TargetState>;
  pause(): Promise<TargetState>;
  resume(): Promise<TargetState>;
  test(): Promise<Schemas['TestDeliveryResponse']>;
  stats(window: '1h' | '24h' | '7d'): Promise<Stats>;
  series(window: '24h' | '7d'): Promise<Series>;
  /** A page of the log by cursor, newest first (docs/reference/pagination.md#17-cursors). */
  deliveries(query: {
    limit: number;
    status?: DeliveryStatus;
    cursor?: string;
  }): Promise<{ items: Delivery[]; nextCursor: string | null }>;
  /** How many deliveries of the log have this status (one item read, its page's count). */
  count(status: DeliveryStatus): Promise<number>;
  retry(deliveryId: string): Promise<Delivery>;
  replay(body: Schemas['ReplayDeliveriesDto']): Promise<Schemas['ReplayResponse']>;
}

export function targetCalls(kind: TargetKind, id: string): TargetCalls {
  const base = PREFIXES[kind];
  // Each prefix takes its own name of the id; the other is not in its path and goes nowhere.
  const path = { notification_id: id, channel_id: id };
  return {
    kind,
    id,
    page: [kind, id],
    state: () => read(api.GET(`${base}/state`, { params: { path } })),
    pause: () => read(api.POST(`${base}/pause`, { params: { path } })),
    resume: () => read(api.POST(`${base}/resume`, { params: { path } })),
    test: () => read(api.POST(`${base}/test`, { params: { path } })),
    stats: (window) => read(api.GET(`${base}/stats`, { params: { path, query: { window } } })),
    series: (window) => read(api.GET(`${base}/stats/series`, { params: { path, query: { window } } })),
    deliveries: ({ cursor, ...query }) =>
      readCursorPage(
        api.GET(`${base}/deliveries`, {
          params: { path, query: { ...query, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    count: async (status) =>
      (
        await readPage(
          api.GET(`${base}/deliveries`, { params: { path, query: { status, page: 1, per_page: 1 } } }),
        )
      ).pagination.total_items,
    retry: (deliveryId) =>
      read(
        api.POST(`${base}/deliveries/{delivery_id}/retry`, {
          params: { path: { ...path, delivery_id: deliveryId } },
        }),
      ),
    replay: (body) => read(api.POST(`${base}/deliveries/replay`, { params: { path }, body })),
  };
}
