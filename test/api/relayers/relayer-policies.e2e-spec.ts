import { errorBody, successBody } from '../../support/envelope';
import { useTestApp } from '../../support/test-app';
import { relayerBody, type NetworkType, uid } from '../../factories';

const BASE58 = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const INT32_OVER = 2147483648;

// Every row of the interface's policy tables: [field, a valid value (echoed as given), invalid values].
const ROWS: Record<NetworkType, Array<[string, unknown, unknown[]]>> = {
  evm: [
    ['eip1559_pricing', true, ['true', 1]],
    ['gas_limit_estimation', false, ['no', 0]],
    ['gas_price_cap', 30000000000, [-1, 1.5, 'abc', true]],
    ['include_revert_data', true, ['true', 1]],
    ['min_balance', 1, [-1, 0.5, '1.5', false]],
    ['private_transactions', true, ['yes', {}]],
    [
      'whitelist_receivers',
      ['0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'],
      ['0xabc', [1], ['not-an-address']],
    ],
  ],
  solana: [
    ['allowed_accounts', [BASE58], ['x', [1], ['0OIl']]],
    ['allowed_programs', [BASE58], [[BASE58.slice(0, 10)], 5]],
    ['allowed_tokens', [{ mint: BASE58 }], [[{}], [{ mint: 'bad' }], 'tokens']],
    ['disallowed_accounts', [BASE58], [[''], true]],
    ['fee_margin_percentage', 2.5, [-1, 'x']],
    ['fee_payment_strategy', 'relayer', ['both', null, 1]],
    ['max_allowed_fee_lamports', 5000, [-1, 1.5, '5', 9223372036854775808n]],
    ['max_signatures', 2147483647, [-1, 0.5, INT32_OVER, '1']],
    ['max_tx_data_size', 1232, [-1, 2.5, INT32_OVER, []]],
    ['min_balance', 0, [-5, 1.25, true]],
    ['swap_config', { strategy: 'jupiter-swap' }, [{ strategy: 'magic' }, 'jupiter', { unknown: 1 }]],
  ],
  stellar: [
    ['allowed_tokens', [{ asset: 'native' }], [[{ asset: '' }], [{}], 'native']],
    ['concurrent_transactions', true, ['true', 0]],
    ['fee_margin_percentage', 0.5, [-0.5, 'x']],
    ['fee_payment_strategy', 'user', ['everyone', 2]],
    ['max_fee', 100, [-1, 1.5, INT32_OVER, '100']],
    ['min_balance', 1, [-1, 0.5, '1']],
    ['slippage_percentage', 1, [-1, 101, 'x']],
    ['swap_config', { strategies: ['soroswap'] }, [{ strategies: ['magic'] }, []]],
    ['timeout_seconds', 30, [-1, 2.5, '30']],
  ],
};

// Fields of the other network types' policies: refused by name.
const FOREIGN: Record<NetworkType, string[]> = {
  evm: ['max_signatures', 'allowed_programs', 'timeout_seconds', 'max_fee'],
  solana: ['gas_price_cap', 'eip1559_pricing', 'concurrent_transactions', 'timeout_seconds'],
  stellar: ['gas_price_cap', 'max_signatures', 'allowed_programs', 'whitelist_receivers'],
};

/** A JSON body with bigint values written as bare integers. */
const toJson = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `__big${v}__` : v)).replace(
    /"__big(\d+)__"/g,
    '$1',
  );

describe('policy fields over HTTP, for every row of the interface tables', () => {
  const handle = useTestApp();
  const app = () => handle.current;
  const post = (type: NetworkType, policies: unknown) =>
    app()
      .raw()
      .post('/api/v1/relayers')
      .set('Authorization', `Bearer ${app().apiKey}`)
      .set('Content-Type', 'application/json')
      .send(toJson(relayerBody(type, { id: uid('p'), name: 'policy row', policies })));

  for (const type of Object.keys(ROWS) as NetworkType[]) {
    describe(type, () => {
      it.each(ROWS[type].map(([field, valid]) => [field, valid]))(
        '%s: a valid value is accepted and echoed',
        async (field, valid) => {
          const res = await post(type, { [field]: valid });
          expect(res.status).toBe(201);
          const expected =
            type === 'solana' && field !== 'fee_payment_strategy'
              ? { fee_payment_strategy: 'user', [field]: valid }
              : { [field]: valid };
          expect(res.body.data.policies).toEqual(expected);
          const got = await app()
            .get(`/api/v1/relayers/${String(res.body.data.id)}`)
            .expect(200);
          expect(got.body).toEqual(successBody(res.body.data));
        },
      );

      it.each(ROWS[type].flatMap(([field, , invalid]) => invalid.map((value) => [field, value])))(
        '%s: %p → 400 naming the field',
        async (field, value) => {
          const res = await post(type, { [field as string]: value });
          expect({ status: res.status, body: res.body }).toEqual({
            status: 400,
            body: errorBody(
              expect.stringMatching(new RegExp(`^policies\\.${field as string}\\b`)) as unknown as string,
            ),
          });
        },
      );

      it.each(FOREIGN[type])('%s of another network type → 400 naming it', async (field) => {
        const res = await post(type, { [field]: 1 });
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: errorBody(`policies.${field} is not an allowed field`),
        });
      });
    });
  }

  it('Solana allowed_accounts and disallowed_accounts cannot both be set', async () => {
    const res = await post('solana', { allowed_accounts: [BASE58], disallowed_accounts: [BASE58] });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: errorBody('policies.allowed_accounts and policies.disallowed_accounts cannot both be set'),
    });
  });

  it('several bad fields are all listed, sorted', async () => {
    const res = await post('evm', { min_balance: -1, gas_price_cap: 'x', max_fee: 1 });
    expect(res.status).toBe(400);
    const parts = (res.body.message as string).split('; ');
    expect(parts.map((p) => p.split(' ')[0])).toEqual([
      'policies.gas_price_cap',
      'policies.max_fee',
      'policies.min_balance',
    ]);
  });
});
