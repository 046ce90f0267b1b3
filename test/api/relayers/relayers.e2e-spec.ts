import { randomBytes } from 'node:crypto';
import { errorBody, expectError, successBody } from '../../support/envelope';
import { secrets } from '../../support/secrets';
import { defaultCatalogue, startTestApp, useTestApp } from '../../support/test-app';
import { KEY1 } from '../../support/test-catalogue';
import {
  createNotification,
  createRelayer,
  ISO,
  NETWORK,
  relayerBody,
  type NetworkType,
  uid,
  UUID_V4_PATTERN,
} from '../../factories';

describe('relayers API', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const body = (type: NetworkType = 'evm', extra: object = {}) => relayerBody(type, extra);
  const create = (type: NetworkType = 'evm', extra: object = {}) => createRelayer(app(), type, extra);

  describe('POST /api/v1/relayers', () => {
    it.each([
      ['evm', KEY1.evm, null],
      ['solana', KEY1.solana, { fee_payment_strategy: 'user' }],
      ['stellar', KEY1.stellar, null],
    ] as const)(
      'creates a %s relayer with every field; address is the signer key address',
      async (type, address, policies) => {
        const id = uid('r');
        const res = await app()
          .post('/api/v1/relayers', {
            id,
            name: 'Main',
            network: NETWORK[type],
            network_type: type,
            paused: true,
            signer_id: KEY1.id,
          })
          .expect(201);
        const expected = {
          id,
          name: 'Main',
          network: NETWORK[type],
          network_type: type,
          address,
          signer_id: KEY1.id,
          notification_id: null,
          paused: true,
          system_disabled: false,
          disabled_reason: null,
          custom_rpc_urls: null,
          policies,
          created_at: ISO,
          updated_at: ISO,
        };
        expect(res.body).toEqual(successBody(expected));
        expect((await app().get(`/api/v1/relayers/${id}`).expect(200)).body).toEqual(res.body);
      },
    );

    it('generates a UUID v4 id when none is given and references an existing notification', async () => {
      const notification = (await createNotification(app(), { url: 'https://hooks.example.com/r' }))
        .id as string;
      const given = body('evm', { notification_id: notification });
      delete (given as { id?: string }).id;
      const res = await app().post('/api/v1/relayers', given).expect(201);
      expect(res.body.data.id).toMatch(UUID_V4_PATTERN);
      expect(res.body.data.notification_id).toBe(notification);
    });

    it('answers 409 for a duplicate id', async () => {
      const first = body();
      await app().post('/api/v1/relayers', first).expect(201);
      expectError(
        await app().post('/api/v1/relayers', { ...first, signer_id: defaultCatalogue().nextSigner() }),
        409,
        'Relayer with this ID already exists',
      );
      expectError(await app().post('/api/v1/relayers', first), 409, 'Relayer with this ID already exists');
    });

    it.each([
      ['missing name', { name: undefined }, 'name must be 1 to 255 characters, not only whitespace'],
      ['blank name', { name: '   ' }, 'name must be 1 to 255 characters, not only whitespace'],
      [
        'name of 256 characters',
        { name: 'n'.repeat(256) },
        'name must be 1 to 255 characters, not only whitespace',
      ],
      ['bad id', { id: 'a b' }, "id must be 1 to 36 characters of letters, digits, '-' or '_'"],
      [
        '37-character id',
        { id: 'a'.repeat(37) },
        "id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ],
      [
        'unknown network type',
        { network_type: 'bitcoin' },
        'network_type must be one of: evm, solana, stellar',
      ],
      ['missing paused', { paused: undefined }, 'paused must be true or false'],
      ['paused as a string', { paused: 'false' }, 'paused must be true or false'],
      [
        'missing signer',
        { signer_id: undefined },
        "signer_id must be 1 to 36 characters of letters, digits, '-' or '_'",
      ],
      ['address in the body', { address: '0xabc' }, 'address is not an allowed field'],
      ['system_disabled in the body', { system_disabled: true }, 'system_disabled is not an allowed field'],
      ['policies not an object', { policies: [1] }, 'policies must be an object'],
      [
        'rpc urls not an array',
        { custom_rpc_urls: 'https://x.example.com' },
        'custom_rpc_urls must be an array of at most 20 {url, weight} objects',
      ],
      [
        '21 rpc urls',
        { custom_rpc_urls: Array.from({ length: 21 }, (_, i) => ({ url: `https://rpc${i}.example.com` })) },
        'custom_rpc_urls must be an array of at most 20 {url, weight} objects',
      ],
      [
        'rpc weight 101',
        { custom_rpc_urls: [{ url: 'https://rpc.example.com', weight: 101 }] },
        'custom_rpc_urls[0].weight must be a whole number from 0 to 100',
      ],
      [
        'rpc weight -1',
        { custom_rpc_urls: [{ url: 'https://rpc.example.com', weight: -1 }] },
        'custom_rpc_urls[0].weight must be a whole number from 0 to 100',
      ],
      [
        'rpc entry with an unknown field',
        { custom_rpc_urls: [{ url: 'https://rpc.example.com', x: 1 }] },
        'custom_rpc_urls[0].x is not an allowed field',
      ],
      [
        'rpc metadata address',
        { custom_rpc_urls: [{ url: 'http://169.254.169.254/latest' }] },
        'custom_rpc_urls[0].url points to a cloud metadata address',
      ],
      [
        'rpc mapped metadata address',
        { custom_rpc_urls: [{ url: 'http://[::ffff:169.254.169.254]/' }] },
        'custom_rpc_urls[0].url points to a cloud metadata address',
      ],
      [
        'rpc hex metadata address',
        { custom_rpc_urls: [{ url: 'http://0xa9fea9fe/' }] },
        'custom_rpc_urls[0].url points to a cloud metadata address',
      ],
      [
        'rpc unspecified address',
        { custom_rpc_urls: [{ url: 'http://0.0.0.0:8545' }] },
        'custom_rpc_urls[0].url points to an unspecified address',
      ],
      [
        'rpc unspecified IPv6',
        { custom_rpc_urls: [{ url: 'http://[::]:8545' }] },
        'custom_rpc_urls[0].url points to an unspecified address',
      ],
      [
        'rpc ftp url',
        { custom_rpc_urls: [{ url: 'ftp://rpc.example.com' }] },
        'custom_rpc_urls[0].url must be an http or https URL',
      ],
    ])('refuses %s with a 400 naming the field', async (_case, extra, message) => {
      expectError(await app().post('/api/v1/relayers', body('evm', extra)), 400, message);
    });

    it('refuses unknown network, signer and notification with a 400 naming them', async () => {
      expectError(
        await app().post('/api/v1/relayers', body('evm', { network: 'devnet' })),
        400,
        "Network 'devnet' not found for network type 'evm'",
      );
      expectError(
        await app().post('/api/v1/relayers', body('evm', { signer_id: 'nobody' })),
        400,
        'Signer with ID nobody not found',
      );
      expectError(
        await app().post('/api/v1/relayers', body('evm', { notification_id: 'no-such-hook' })),
        400,
        'Notification with ID no-such-hook not found',
      );
    });

    it('refuses a signer already used on the same network, naming the relayer; other networks are fine', async () => {
      const first = await create('evm');
      expectError(
        await app().post('/api/v1/relayers', body('evm', { signer_id: first.signer_id })),
        400,
        `Signer with ID ${String(first.signer_id)} is already used by relayer ${String(first.id)} on evm network 'sepolia'`,
      );
      await app()
        .post('/api/v1/relayers', body('evm', { signer_id: first.signer_id, network: 'mainnet' }))
        .expect(201);
      await app()
        .post('/api/v1/relayers', body('solana', { signer_id: first.signer_id }))
        .expect(201);
    });

    it('masks RPC URLs in every response: no credentials, last segment and query values hidden', async () => {
      const pw = secrets.add(`pw${randomBytes(6).toString('hex')}`);
      const key = secrets.add(`KEY${randomBytes(8).toString('hex')}`);
      const query = secrets.add(`q${randomBytes(6).toString('hex')}`);
      const url = `https://user:${pw}@rpc.example.com/v2/${key}?apikey=${query}`;
      const created = await app()
        .post(
          '/api/v1/relayers',
          body('evm', { custom_rpc_urls: [{ url, weight: 40 }, { url: 'https://rpc2.example.com/x' }] }),
        )
        .expect(201);
      expect(created.body.data.custom_rpc_urls).toEqual([
        { url: 'https://rpc.example.com/v2/***?apikey=***', weight: 40 },
        { url: 'https://rpc2.example.com/***', weight: 100 },
      ]);
      const id = created.body.data.id as string;
      for (const res of [
        created,
        await app().get(`/api/v1/relayers/${id}`),
        await app().get('/api/v1/relayers?per_page=100'),
      ]) {
        expect([
          res.text.includes(pw),
          res.text.includes(key),
          res.text.includes(query),
          res.text.includes('user:'),
        ]).toEqual([false, false, false, false]);
      }
      // A masked URL sent back unchanged keeps the stored one; a new URL replaces it.
      const patched = await app()
        .patch(`/api/v1/relayers/${id}`, {
          custom_rpc_urls: [
            { url: 'https://rpc.example.com/v2/***?apikey=***', weight: 10 },
            { url: 'https://rpc3.example.com/y' },
          ],
        })
        .expect(200);
      expect(patched.body.data.custom_rpc_urls).toEqual([
        { url: 'https://rpc.example.com/v2/***?apikey=***', weight: 10 },
        { url: 'https://rpc3.example.com/***', weight: 100 },
      ]);
      expect(await handle.database.dump()).toContain(url);
    });
  });

  describe('exact wei amounts', () => {
    it.each([
      ['a JSON number', '123456789012345678901'],
      ['a decimal string', '"123456789012345678901"'],
    ])(
      'EVM min_balance as %s keeps every digit, in responses and after a restart',
      async (_case, literal) => {
        const id = uid('r');
        const raw = `{"id":"${id}","name":"wei","network":"sepolia","network_type":"evm","paused":false,"signer_id":"${defaultCatalogue().nextSigner()}","policies":{"min_balance":${literal},"gas_price_cap":99999999999999999999999999}}`;
        const res = await app()
          .raw()
          .post('/api/v1/relayers')
          .set('Authorization', `Bearer ${app().apiKey}`)
          .set('Content-Type', 'application/json')
          .send(raw);
        expect(res.status).toBe(201);
        expect(res.text).toContain(
          '"policies":{"gas_price_cap":99999999999999999999999999,"min_balance":123456789012345678901}',
        );
        const restarted = await startTestApp({ DATABASE_URL: handle.database.url, API_KEY: app().apiKey });
        try {
          const again = await restarted.get(`/api/v1/relayers/${id}`).expect(200);
          expect(again.text).toContain('"min_balance":123456789012345678901');
          expect(again.text).toContain('"gas_price_cap":99999999999999999999999999');
        } finally {
          await restarted.close();
        }
      },
    );

    it('int64 limits come back with every digit', async () => {
      const id = uid('r');
      const raw = `{"id":"${id}","name":"i64","network":"devnet","network_type":"solana","paused":false,"signer_id":"${defaultCatalogue().nextSigner()}","policies":{"min_balance":9223372036854775807,"max_allowed_fee_lamports":9223372036854775807}}`;
      const res = await app()
        .raw()
        .post('/api/v1/relayers')
        .set('Authorization', `Bearer ${app().apiKey}`)
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(res.status).toBe(201);
      expect(res.text).toContain('"max_allowed_fee_lamports":9223372036854775807');
      expect(res.text).toContain('"min_balance":9223372036854775807');
      const over = raw
        .replace(`"${id}"`, `"${uid('r')}"`)
        .replace('"min_balance":9223372036854775807', '"min_balance":9223372036854775808');
      const refused = await app()
        .raw()
        .post('/api/v1/relayers')
        .set('Authorization', `Bearer ${app().apiKey}`)
        .set('Content-Type', 'application/json')
        .send(over);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: errorBody('policies.min_balance must be a whole number from 0 to 9223372036854775807'),
      });
    });
  });

  describe('PATCH /api/v1/relayers/{id}', () => {
    it('changes each allowed field alone and leaves the others', async () => {
      const r = await create('evm');
      const hook = (await createNotification(app(), { url: 'https://hooks.example.com/p' })).id as string;
      const steps: Array<[object, object]> = [
        [{ name: 'renamed' }, { name: 'renamed' }],
        [{ paused: true }, { paused: true }],
        [{ notification_id: hook }, { notification_id: hook }],
        [
          { custom_rpc_urls: [{ url: 'https://rpc.example.com/a', weight: 7 }] },
          { custom_rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 7 }] },
        ],
        [{ policies: { eip1559_pricing: true } }, { policies: { eip1559_pricing: true } }],
        [{ policies: { min_balance: 5 } }, { policies: { eip1559_pricing: true, min_balance: 5 } }],
      ];
      let expected = { ...r };
      for (const [patch, change] of steps) {
        const res = await app()
          .patch(`/api/v1/relayers/${String(r.id)}`, patch)
          .expect(200);
        expected = { ...expected, ...change, updated_at: ISO };
        expect(res.body).toEqual(successBody({ ...expected, created_at: r.created_at }));
      }
    });

    it('null clears notification_id, custom_rpc_urls, policies or one policy field', async () => {
      const hook = (await createNotification(app(), { url: 'https://hooks.example.com/n' })).id as string;
      const r = await create('evm', {
        notification_id: hook,
        custom_rpc_urls: [{ url: 'https://rpc.example.com/a' }],
        policies: { eip1559_pricing: true, min_balance: 1 },
      });
      const path = `/api/v1/relayers/${String(r.id)}`;
      expect(
        (
          await app()
            .patch(path, { policies: { min_balance: null } })
            .expect(200)
        ).body.data.policies,
      ).toEqual({ eip1559_pricing: true });
      const cleared = (
        await app().patch(path, { notification_id: null, custom_rpc_urls: null, policies: null }).expect(200)
      ).body.data;
      expect([cleared.notification_id, cleared.custom_rpc_urls, cleared.policies]).toEqual([
        null,
        null,
        null,
      ]);
    });

    it.each([
      [{ name: null }, 'name must be 1 to 255 characters, not only whitespace'],
      [{ paused: null }, 'paused must be true or false'],
      [{ id: 'new-id' }, 'id is not an allowed field'],
      [{ network: 'mainnet' }, 'network is not an allowed field'],
      [{ network_type: 'solana' }, 'network_type is not an allowed field'],
      [{ signer_id: KEY1.id }, 'signer_id is not an allowed field'],
      [{ address: '0x1' }, 'address is not an allowed field'],
      [{ system_disabled: false }, 'system_disabled is not an allowed field'],
      [{ policies: { max_signatures: 1 } }, 'policies.max_signatures is not an allowed field'],
      [
        { policies: { min_balance: -1 } },
        'policies.min_balance must be a whole number >= 0 (a JSON number or a string of decimal digits, at most 1000 digits)',
      ],
      [{ notification_id: 'missing-hook' }, 'Notification with ID missing-hook not found'],
    ])('refuses %j with a 400 naming the field', async (patch, message) => {
      const r = await create('evm');
      expectError(await app().patch(`/api/v1/relayers/${String(r.id)}`, patch), 400, message);
    });

    it('checks the body before existence: unknown relayer → 404 only for a valid body', async () => {
      expectError(
        await app().patch('/api/v1/relayers/no-such-relayer', { name: 'x' }),
        404,
        'Relayer with ID no-such-relayer not found',
      );
      expectError(
        await app().patch('/api/v1/relayers/no-such-relayer', { paused: 'yes' }),
        400,
        'paused must be true or false',
      );
      expectError(
        await app().patch('/api/v1/relayers/no-such-relayer', { network: 'x' }),
        400,
        'network is not an allowed field',
      );
    });

    it('{} answers 200 with the relayer unchanged', async () => {
      const r = await create('stellar', { policies: { max_fee: 100 } });
      expect(
        (
          await app()
            .patch(`/api/v1/relayers/${String(r.id)}`, {})
            .expect(200)
        ).body,
      ).toEqual(successBody(r));
    });

    it('50 concurrent PATCHes: 15 each set a different policy key (nested too), 35 rename; none is lost', async () => {
      const r = await create('solana');
      const path = `/api/v1/relayers/${String(r.id)}`;
      const patches = [
        ...POLICY_CHANGES.map((policies) => ({ policies })),
        ...Array.from({ length: 35 }, (_, i) => ({ name: `name ${i}` })),
      ];
      const results = await Promise.all(patches.map((p) => app().patch(path, p)));
      expect(results.map((res) => res.status)).toEqual(Array(50).fill(200));
      const final = (await app().get(path).expect(200)).body.data;
      expect(final.policies).toEqual(EXPECTED_AFTER_ALL_CHANGES);
      expect(final.name).toMatch(/^name \d+$/);
    });

    it('a system-disabled relayer can still be patched', async () => {
      const r = await create('evm');
      await handle.database.exec(
        `UPDATE relayers SET system_disabled = 1, disabled_reason = '{"type":"NonceSyncFailed","details":"nonce gap"}' WHERE id = '${String(r.id)}'`,
      );
      const res = await app()
        .patch(`/api/v1/relayers/${String(r.id)}`, {
          custom_rpc_urls: [{ url: 'https://rpc.example.com/fixed' }],
        })
        .expect(200);
      expect(res.body.data).toMatchObject({
        system_disabled: true,
        disabled_reason: { type: 'NonceSyncFailed', details: 'nonce gap' },
        custom_rpc_urls: [{ url: 'https://rpc.example.com/***', weight: 100 }],
      });
    });
  });

  describe('races', () => {
    it('two concurrent creates with the same id: one 201, one 409', async () => {
      for (let round = 0; round < 5; round++) {
        const id = uid('r');
        const [a, b] = await Promise.all([
          app().post('/api/v1/relayers', body('evm', { id })),
          app().post('/api/v1/relayers', body('evm', { id })),
        ]);
        expect([a.status, b.status].sort()).toEqual([201, 409]);
        expect([a, b].find((res) => res.status === 409)?.body).toEqual(
          errorBody('Relayer with this ID already exists'),
        );
      }
    });

    it('two concurrent creates with the same signer and network: one 201, one 400', async () => {
      for (let round = 0; round < 5; round++) {
        const signer = defaultCatalogue().nextSigner();
        const [a, b] = await Promise.all([
          app().post('/api/v1/relayers', body('evm', { signer_id: signer })),
          app().post('/api/v1/relayers', body('evm', { signer_id: signer })),
        ]);
        expect([a.status, b.status].sort()).toEqual([201, 400]);
        const winner = [a, b].find((res) => res.status === 201)?.body.data.id;
        expect([a, b].find((res) => res.status === 400)?.body).toEqual(
          errorBody(
            `Signer with ID ${signer} is already used by relayer ${String(winner)} on evm network 'sepolia'`,
          ),
        );
      }
    });
  });

  describe('GET, list and DELETE', () => {
    it('lists relayers in creation order with pagination', async () => {
      const res = await app().get('/api/v1/relayers?page=1&per_page=3').expect(200);
      expect(res.body.pagination).toEqual({ current_page: 1, per_page: 3, total_items: expect.any(Number) });
      expect(res.body.data).toHaveLength(3);
      const all = await app().get('/api/v1/relayers?per_page=100').expect(200);
      const created = all.body.data.map((r: { created_at: string }) => r.created_at);
      expect([...created].sort()).toEqual(created);
      expectError(
        await app().get('/api/v1/relayers?per_page=101'),
        400,
        'per_page must be a whole number from 1 to 100',
      );
    });

    it('DELETE answers 200 then 404; GET of an unknown id 404', async () => {
      const r = await create('evm');
      const res = await app()
        .delete(`/api/v1/relayers/${String(r.id)}`)
        .expect(200);
      expect(res.body).toEqual(successBody('Relayer deleted successfully'));
      expectError(
        await app().delete(`/api/v1/relayers/${String(r.id)}`),
        404,
        `Relayer with ID ${String(r.id)} not found`,
      );
      expectError(
        await app().get(`/api/v1/relayers/${String(r.id)}`),
        404,
        `Relayer with ID ${String(r.id)} not found`,
      );
    });

    it('a notification in use cannot be deleted (409 naming the relayers); once cleared it can', async () => {
      const hook = (await createNotification(app(), { url: 'https://hooks.example.com/used' })).id as string;
      const a = await create('evm', { id: uid('use-a'), notification_id: hook });
      const b = await create('stellar', {
        id: uid('use-b'),
        notification_id: hook,
      });
      expectError(
        await app().delete(`/api/v1/notifications/${hook}`),
        409,
        `Notification is used by relayers: ${String(a.id)}, ${String(b.id)}`,
      );
      await app()
        .patch(`/api/v1/relayers/${String(a.id)}`, { notification_id: null })
        .expect(200);
      await app()
        .delete(`/api/v1/relayers/${String(b.id)}`)
        .expect(200);
      await app().delete(`/api/v1/notifications/${hook}`).expect(200);
    });
  });
});

const PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const MINT = 'So11111111111111111111111111111111111111112';
const ACCOUNT = 'Ho87cuS3aSRgUMCeMrV7uNCCWx6Fj2ytnufYQ1W7KCLr';

/** Fifteen patches of one Solana relayer, each touching one policy key of its own. */
const POLICY_CHANGES: object[] = [
  { allowed_programs: [PROGRAM] },
  { allowed_tokens: [{ mint: MINT }] },
  { disallowed_accounts: [ACCOUNT] },
  { fee_margin_percentage: 1.5 },
  { fee_payment_strategy: 'relayer' },
  { max_allowed_fee_lamports: 5000 },
  { max_signatures: 3 },
  { max_tx_data_size: 1232 },
  { min_balance: 1000000 },
  { swap_config: { strategy: 'jupiter-swap' } },
  { swap_config: { cron_schedule: '0 * * * *' } },
  { swap_config: { min_balance_threshold: 10 } },
  { swap_config: { jupiter_swap_options: { priority_fee_max_lamports: 99 } } },
  { swap_config: { jupiter_swap_options: { priority_level: 'high' } } },
  { swap_config: { jupiter_swap_options: { dynamic_compute_unit_limit: true } } },
];

const EXPECTED_AFTER_ALL_CHANGES = {
  allowed_programs: [PROGRAM],
  allowed_tokens: [{ mint: MINT }],
  disallowed_accounts: [ACCOUNT],
  fee_margin_percentage: 1.5,
  fee_payment_strategy: 'relayer',
  max_allowed_fee_lamports: 5000,
  max_signatures: 3,
  max_tx_data_size: 1232,
  min_balance: 1000000,
  swap_config: {
    strategy: 'jupiter-swap',
    cron_schedule: '0 * * * *',
    min_balance_threshold: 10,
    jupiter_swap_options: {
      priority_fee_max_lamports: 99,
      priority_level: 'high',
      dynamic_compute_unit_limit: true,
    },
  },
};
