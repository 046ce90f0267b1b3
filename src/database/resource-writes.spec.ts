import { ConflictError, NotFoundError, PreconditionFailedError } from '../common/errors/domain-errors';
import { entityTag } from '../common/http/tagged';
import { IfMatch } from '../common/http/if-match';
import { ReferenceRegistry } from '../common/references/reference-registry';
import { ResourceWrites, STALE } from './resource-writes';
import type { Change, Transactions, Tx } from './transactions';

interface Row {
  id: string;
  version: number;
  createdAt: Date;
  name: string;
}

/** Runs the work at once with a transaction that keeps the changes it records. */
function fakeTransactions(recorded: Change[]): Transactions {
  const tx = {
    manager: {},
    recordChange: (change: Change) => Promise.resolve(void recorded.push(change)),
    publish: () => Promise.resolve(),
  } as unknown as Tx;
  return { run: <T>(work: (tx: Tx) => Promise<T>) => work(tx) } as unknown as Transactions;
}

describe('ResourceWrites', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  let stored: Row | null;
  let recorded: Change[];
  let users: ReferenceRegistry;
  let writes: ResourceWrites<Row, { id: string; name: string }>;
  beforeEach(() => {
    stored = { id: 'w-1', version: 3, createdAt: created, name: 'first' };
    recorded = [];
    users = new ReferenceRegistry();
    writes = new ResourceWrites(fakeTransactions(recorded), {
      name: 'widget',
      event: (widget) => ({ widget }),
      notFound: (id) => new NotFoundError(`Widget ${id} not found`),
      read: (id) => Promise.resolve(stored?.id === id ? { ...stored } : null),
      toResponse: ({ id, name }) => ({ id, name }),
      users,
      inUse: (id, uses) => new ConflictError(`Widget ${id} is used by ${uses.join('; ')}`),
    });
  });

  it('update: reads again after a stale write, and records the change with its derived event', async () => {
    let attempts = 0;
    const result = await writes.update(
      'w-1',
      (current) => (current.name === 'second' ? null : { name: 'second' }),
      (current, changes) => {
        attempts++;
        if (attempts === 1) {
          stored = { ...current, version: current.version + 1, name: 'other' };
          return Promise.resolve(STALE);
        }
        stored = { ...current, ...changes, version: current.version + 1 };
        return Promise.resolve();
      },
      { eventExtra: () => ({ changed: ['name'] }) },
    );
    expect({ attempts, data: result.data, etag: result.etag }).toEqual({
      attempts: 2,
      data: { id: 'w-1', name: 'second' },
      etag: entityTag(5, created),
    });
    expect(recorded).toEqual([
      {
        resource: 'widget',
        id: 'w-1',
        operation: 'update',
        before: { id: 'w-1', name: 'other' },
        after: { id: 'w-1', name: 'second' },
        event: ['widget.updated', { widget: { id: 'w-1', name: 'second' }, changed: ['name'] }],
      },
    ]);
  });

  it('update: If-Match of an older version is a 412, before any write', async () => {
    const write = jest.fn();
    await expect(
      writes.update('w-1', () => ({ name: 'x' }), write, {
        ifMatch: IfMatch.parse(entityTag(2, created)),
      }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    expect(write).not.toHaveBeenCalled();
  });

  it('remove: refuses a row in use, naming its users, and deletes nothing', async () => {
    users.register({ kind: 'gadgets', findIdsUsing: () => Promise.resolve(['g-1', 'g-2']) });
    const remove = jest.fn();
    await expect(writes.remove('w-1', remove)).rejects.toThrow('Widget w-1 is used by gadgets: g-1, g-2');
    expect({ calls: remove.mock.calls.length, recorded }).toEqual({ calls: 0, recorded: [] });
  });

  it('remove: records the row and those removed with it, in that order', async () => {
    const child = { id: 'w-2', version: 1, createdAt: created, name: 'child' };
    await expect(writes.remove('w-1', () => Promise.resolve([child]))).resolves.toEqual(['w-1', 'w-2']);
    expect(recorded.map(({ id, operation, event }) => [id, operation, event?.[0]])).toEqual([
      ['w-1', 'delete', 'widget.deleted'],
      ['w-2', 'delete', 'widget.deleted'],
    ]);
  });

  it('remove: a row gone meanwhile is a 404 without If-Match, a 412 with it', async () => {
    await expect(writes.remove('w-1', () => Promise.resolve(false))).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      writes.remove('w-1', () => Promise.resolve(false), { ifMatch: IfMatch.parse(entityTag(3, created)) }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
  });
});
