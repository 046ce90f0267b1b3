import { DeliveredWriter, type AnsweredDelivery } from './delivered-writer';

const answer = (id: string, lease: string, statusCode = 200): AnsweredDelivery => ({
  notificationId: `target-${id}`,
  id,
  lease,
  statusCode,
  latencyMs: 3,
});

describe('DeliveredWriter (docs/reference/webhooks.md#29-batches)', () => {
  it('writes the answers of one turn in one call, whatever their leases and status codes', async () => {
    const calls: string[][] = [];
    const writer = new DeliveredWriter((answered) => {
      calls.push(answered.map((a) => `${a.id}/${a.lease}/${a.statusCode}`));
      return Promise.resolve();
    });
    await Promise.all([
      writer.record(answer('d1', 'lease-1')),
      writer.record(answer('d2', 'lease-2', 202)),
      writer.record(answer('d3', 'lease-1')),
    ]);
    expect(calls).toEqual([['d1/lease-1/200', 'd2/lease-2/202', 'd3/lease-1/200']]);
  });

  it('writes the answers that arrive during a write together in the next one, each resolved after its own', async () => {
    const calls: string[][] = [];
    const events: string[] = [];
    let finishFirst: () => void = () => undefined;
    const firstWritten = new Promise<void>((resolve) => (finishFirst = resolve));
    const writer = new DeliveredWriter(async (answered) => {
      calls.push(answered.map((a) => a.id));
      if (calls.length === 1) await firstWritten;
    });
    const first = writer.record(answer('d1', 'l')).then(() => events.push('d1'));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [
      writer.record(answer('d2', 'l')).then(() => events.push('d2')),
      writer.record(answer('d3', 'm')).then(() => events.push('d3')),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    expect({ calls, events }).toEqual({ calls: [['d1']], events: [] });
    finishFirst();
    await Promise.all([first, ...later]);
    expect({ calls, events }).toEqual({ calls: [['d1'], ['d2', 'd3']], events: ['d1', 'd2', 'd3'] });
  });

  it('rejects the answers of a failed write, and writes the next ones', async () => {
    let fail = true;
    const writer = new DeliveredWriter(() =>
      fail ? Promise.reject(new Error('database down')) : Promise.resolve(),
    );
    const failed = await Promise.allSettled([
      writer.record(answer('d1', 'l')),
      writer.record(answer('d2', 'l')),
    ]);
    fail = false;
    await writer.record(answer('d3', 'l'));
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'written'))).toEqual([
      'database down',
      'database down',
    ]);
  });
});
