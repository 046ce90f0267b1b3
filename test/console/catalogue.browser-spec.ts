import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Locator } from 'playwright-core';
import { createKey, uid } from '../factories';
import { as } from '../support/as-key';
import {
  distinct,
  documentWidth,
  PHONE,
  screenshot,
  seriousViolations,
  useConsole,
  type ConsoleTab,
} from '../support/browser';
import { successBody } from '../support/envelope';
import { secrets } from '../support/secrets';
import { KEY1, writeConfigFile } from '../support/test-catalogue';
import { useTestApp } from '../support/test-app';

// A catalogue of this file's own: an RPC URL with credentials, a key in its path and its query, and a
// network whose id is not its name (`evm:base-sepolia` for `Base-Sepolia`).
const RPC_PASSWORD = secrets.add(`rpcpw${randomBytes(8).toString('hex')}`);
const RPC_KEY = secrets.add(`rpckey${randomBytes(8).toString('hex')}`);
const OPS_KEY = secrets.add(randomBytes(32).toString('hex'));
const VAULT_PASSWORD = secrets.add(`vaultpw${randomBytes(8).toString('hex')}`);
const VAULT_SECRET_ID = secrets.add(`secret-${randomBytes(8).toString('hex')}`);
const G = '0279BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798';

function writeCatalogue(): string {
  const file = writeConfigFile({
    networks: [
      {
        type: 'evm',
        network: 'sepolia',
        chain_id: 11155111,
        symbol: 'ETH',
        is_testnet: true,
        explorer_urls: ['https://sepolia.etherscan.io'],
        rpc_urls: [
          `https://rpcuser:${RPC_PASSWORD}@rpc.example.com/v2/${RPC_KEY}?apikey=${RPC_KEY}`,
          { url: 'https://backup.example.com/', weight: 40 },
        ],
      },
      {
        type: 'evm',
        network: 'Base-Sepolia',
        chain_id: 84532,
        symbol: 'ETH',
        is_testnet: true,
        rpc_urls: ['https://base.example.com/'],
      },
      {
        type: 'solana',
        network: 'devnet',
        symbol: 'SOL',
        is_testnet: true,
        rpc_urls: ['https://solana.example.com/'],
      },
      {
        type: 'stellar',
        network: 'testnet',
        passphrase: 'Test SDF Network ; September 2015',
        is_testnet: true,
        rpc_urls: ['https://stellar.example.com/'],
      },
    ],
    signers: [
      { id: KEY1.id, type: 'plain', config: { key: { type: 'plain', value: KEY1.hex } } },
      { id: 'ops-signer', type: 'plain', config: { key: { type: 'plain', value: OPS_KEY } } },
    ],
  });
  return file;
}

describe('the operator console: signers, networks, audit and configuration', () => {
  const catalogue = writeCatalogue();
  const handle = useTestApp({ CONFIG_FILE: catalogue });
  const app = () => handle.current;
  const { open } = useConsole(app);
  const texts = (locator: Locator) => locator.allTextContents();

  // Two relayers, made before any page is opened: one on sepolia, one on devnet.
  const relayers = { evm: uid('r'), solana: uid('r') };

  beforeAll(async () => {
    await app()
      .post('/api/v1/relayers', {
        id: relayers.evm,
        name: 'evm one',
        network: 'sepolia',
        network_type: 'evm',
        signer_id: KEY1.id,
        paused: false,
      })
      .expect(201);
    await app()
      .post('/api/v1/relayers', {
        id: relayers.solana,
        name: '<img src=x onerror=alert(1)> solana',
        network: 'devnet',
        network_type: 'solana',
        signer_id: 'ops-signer',
        paused: false,
      })
      .expect(201);
    await app()
      .post('/api/v1/signers', {
        id: 'transit-1',
        type: 'vault_transit',
        config: {
          address: `https://vaultuser:${VAULT_PASSWORD}@vault.example.com`,
          role_id: 'role-1',
          secret_id: VAULT_SECRET_ID,
          key_name: 'relayer',
          pubkey: G,
        },
      })
      .expect(201);
  });

  /** The `dt`/`dd` pairs of a `dl`, in order. */
  const pairsOf = (dl: Locator) =>
    dl.evaluate((list) =>
      [...list.querySelectorAll(':scope > div, :scope > dt, :scope > dd')].flatMap((node) =>
        node.tagName === 'DIV'
          ? [[node.querySelector('dt')?.textContent ?? '', node.querySelector('dd')?.textContent ?? '']]
          : node.tagName === 'DT'
            ? [[node.textContent ?? '', node.nextElementSibling?.textContent ?? '']]
            : [],
      ),
    );

  describe('signers', () => {
    it('lists what the API holds: type, addresses, the config as answered (masked), and no write control', async () => {
      const tab = await open(app().apiKey, '#/signers');
      const table = tab.page.getByRole('table', { name: 'Signers' });
      await table.waitFor();
      const api = await app().get('/api/v1/signers?page=1&per_page=25').expect(200);
      expect((api.body as { data: { id: string }[] }).data.map((s) => s.id)).toEqual([
        KEY1.id,
        'ops-signer',
        'transit-1',
      ]);
      expect(await texts(table.locator('tbody th'))).toEqual([KEY1.id, 'ops-signer', 'transit-1']);
      const row = (id: string) =>
        table.locator('tbody tr').filter({ has: tab.page.getByRole('rowheader', { name: id }) });
      // A key-holding signer: local, its three addresses, nothing of its config.
      expect(await texts(row(KEY1.id).locator('td'))).toEqual([
        'local',
        `EVM${KEY1.evm}Solana${KEY1.solana}Stellar${KEY1.stellar}`,
        'nothing to show (no secret is ever shown)',
      ]);
      expect(await pairsOf(row(KEY1.id).locator('td').nth(1).locator('dl'))).toEqual([
        ['EVM', KEY1.evm],
        ['Solana', KEY1.solana],
        ['Stellar', KEY1.stellar],
      ]);
      // A hosted signer: its non-secret config as the API answers it, the Vault address masked.
      const transit = (await app().get('/api/v1/signers/transit-1').expect(200)).body as {
        data: { config: Record<string, string | null> };
      };
      expect(transit.data.config.address).toBe('https://***@vault.example.com/');
      expect(await texts(row('transit-1').locator('td').first())).toEqual(['vault_transit']);
      expect(await pairsOf(row('transit-1').locator('td').nth(1).locator('dl'))).toEqual([['EVM', KEY1.evm]]);
      expect(await pairsOf(row('transit-1').locator('td').nth(2).locator('dl'))).toEqual([
        ['address', 'https://***@vault.example.com/'],
        ['namespace', 'not set'],
        ['key_name', 'relayer'],
        ['mount_point', 'not set'],
        ['pubkey', G],
      ]);
      const main = (await tab.page.locator('main').textContent()) ?? '';
      expect(secrets.foundIn(main)).toEqual([]);
      expect(main).not.toContain('vaultuser');
      // Read only: no form, and no button but the pager's.
      expect(await tab.page.locator('main form, main input, main textarea').count()).toBe(0);
      expect(await texts(tab.page.locator('main button'))).toEqual(['Previous', 'Next']);
      await expect(
        tab.page.getByRole('navigation', { name: 'Signers pages' }).locator('span').textContent(),
      ).resolves.toBe('1–3 of 3 (page 1 of 1)');
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'signers');
    });

    it('says what to do about an unknown signer, and fits a 390 px screen', async () => {
      const tab = await open(app().apiKey, '#/signers/ghost', PHONE);
      await tab.page.locator('main [role="alert"]').waitFor();
      expect(await texts(tab.page.locator('main [role="alert"] p'))).toEqual([
        'Could not load signer ghost: Signer with ID ghost not found',
        'It does not exist, or it is outside what this key may see.',
      ]);
      await tab.page.getByRole('link', { name: 'All signers' }).click();
      await tab.page.getByRole('table', { name: 'Signers' }).waitFor();
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'signers');
    });
  });

  describe('networks', () => {
    const NAMES = {
      'evm:sepolia': 'sepolia',
      'evm:base-sepolia': 'Base-Sepolia',
      'solana:devnet': 'devnet',
      'stellar:testnet': 'testnet',
    } as const;
    /** A network's panel, named by its heading: its name and its id. */
    const panel = (tab: ConsoleTab, id: keyof typeof NAMES) =>
      tab.page.getByRole('region', { name: `${NAMES[id]} ${id}`, exact: true });
    const alertRule = (tab: ConsoleTab, id: keyof typeof NAMES) => panel(tab, id).locator('.alert-rule');

    it('shows each network as the API answers it, RPC URLs masked and their credentials nowhere', async () => {
      const tab = await open(app().apiKey, '#/networks');
      await tab.page.getByRole('navigation', { name: 'Networks pages' }).waitFor();
      const api = (await app().get('/api/v1/networks?page=1&per_page=10').expect(200)).body as {
        data: { id: string; name: string }[];
      };
      const headings = await texts(tab.page.locator('main section h2'));
      expect(headings).toEqual(api.data.map((n) => `${n.name} ${n.id}`));
      expect(headings).toEqual([
        'sepolia evm:sepolia',
        'Base-Sepolia evm:base-sepolia',
        'devnet solana:devnet',
        'testnet stellar:testnet',
      ]);
      const sepolia = (await app().get('/api/v1/networks/evm:sepolia').expect(200)).body as {
        data: { rpc_urls: { url: string; weight: number }[] };
      };
      expect(sepolia.data.rpc_urls).toEqual([
        { url: 'https://rpc.example.com/v2/***?apikey=***', weight: 100 },
        { url: 'https://backup.example.com/', weight: 40 },
      ]);
      expect(await pairsOf(panel(tab, 'evm:sepolia').locator('dl.facts'))).toEqual([
        ['Type', 'evm'],
        ['Testnet', 'yes'],
        ['Chain id', '11155111'],
        ['Symbol', 'ETH'],
        [
          'RPC URLs',
          'https://rpc.example.com/v2/***?apikey=*** (weight 100)https://backup.example.com/ (weight 40)',
        ],
        ['Explorers', 'https://sepolia.etherscan.io'],
      ]);
      expect(await pairsOf(panel(tab, 'stellar:testnet').locator('dl.facts'))).toEqual([
        ['Type', 'stellar'],
        ['Testnet', 'yes'],
        ['Passphrase', 'Test SDF Network ; September 2015'],
        ['Symbol', 'not set'],
        ['RPC URLs', 'https://stellar.example.com/ (weight 100)'],
      ]);
      expect(await alertRule(tab, 'evm:sepolia').textContent()).toBe(
        'No default threshold: relayers on this network alert only with a threshold of their own.',
      );
      const main = (await tab.page.locator('main').textContent()) ?? '';
      expect(secrets.foundIn(main)).toEqual([]);
      expect(main).not.toContain('rpcuser');
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'networks');
    });

    it('sets and removes a network default threshold through the API, and shows its 400 message', async () => {
      const tab = await open(app().apiKey, '#/networks');
      const sepolia = panel(tab, 'evm:sepolia');
      await alertRule(tab, 'evm:sepolia').waitFor();
      const threshold = sepolia.getByLabel('New threshold (ETH)');
      // More digits than the API takes: its message is shown beside the field; nothing changes.
      await threshold.fill(`1${'0'.repeat(990)}`);
      await sepolia.getByRole('button', { name: 'Set threshold' }).click();
      await expect(sepolia.locator('p.field-error').textContent()).resolves.toBe(
        'threshold must be a whole number >= 0 in the base unit (a JSON integer or a string of decimal digits, at most 1000 digits)',
      );
      await expect(sepolia.locator('p.outcome.error').textContent()).resolves.toBe(
        'Nothing changed: the API refused the threshold, as said beside it.',
      );
      expect((await app().get('/api/v1/networks/evm:sepolia/balance-alert').expect(200)).body).toEqual(
        successBody({ threshold: null, source: null }),
      );
      // Typed in ETH, sent in wei.
      await threshold.fill('0.25');
      expect(await sepolia.locator('.amount-note').textContent()).toBe('Sends 250000000000000000 wei.');
      await sepolia.getByRole('button', { name: 'Set threshold' }).click();
      await expect(sepolia.locator('p.outcome.ok').textContent()).resolves.toBe(
        'Default alert threshold of sepolia set.',
      );
      await sepolia.getByText('Relayers on this network without a rule of their own alert below').waitFor();
      expect(await alertRule(tab, 'evm:sepolia').textContent()).toBe(
        'Relayers on this network without a rule of their own alert below 0.25 ETH.',
      );
      expect(await alertRule(tab, 'evm:sepolia').locator('.amount').getAttribute('title')).toBe(
        '0.25 ETH (250000000000000000 wei)',
      );
      expect((await app().get('/api/v1/networks/evm:sepolia/balance-alert').expect(200)).body).toEqual(
        successBody({ threshold: '250000000000000000', source: 'network' }),
      );
      // The relayers on it now have that threshold.
      expect((await app().get(`/api/v1/relayers/${relayers.evm}/balance-alert`).expect(200)).body).toEqual(
        successBody({ threshold: '250000000000000000', source: 'network' }),
      );
      // A network whose id is not its name.
      const base = panel(tab, 'evm:base-sepolia');
      await base.getByLabel('New threshold (ETH)').fill('0.000000000000000007');
      await base.getByRole('button', { name: 'Set threshold' }).click();
      await base.getByRole('button', { name: 'Remove threshold' }).waitFor();
      expect((await app().get('/api/v1/networks/evm:base-sepolia/balance-alert').expect(200)).body).toEqual(
        successBody({ threshold: '7', source: 'network' }),
      );
      await base.getByRole('button', { name: 'Remove threshold' }).click();
      await expect(base.locator('p.outcome.ok', { hasText: 'removed' }).textContent()).resolves.toBe(
        'Default alert threshold of Base-Sepolia removed.',
      );
      await base.getByText('No default threshold').waitFor();
      expect(await base.getByRole('button', { name: 'Remove threshold' }).count()).toBe(0);
      expect((await app().get('/api/v1/networks/evm:base-sepolia/balance-alert').expect(200)).body).toEqual(
        successBody({ threshold: null, source: null }),
      );
    });

    it('offers a key with networks:read alone no control, and shows it the threshold as set', async () => {
      const key = (await createKey(app(), { permissions: ['networks:read'] })).key;
      await app()
        .put('/api/v1/networks/solana:devnet/balance-alert', { threshold: '5000000000' })
        .expect(200);
      const tab = await open(key, '#/networks');
      await tab.page.getByRole('navigation', { name: 'Networks pages' }).waitFor();
      await alertRule(tab, 'solana:devnet').getByText('5 SOL').waitFor();
      expect(await alertRule(tab, 'solana:devnet').textContent()).toBe(
        'Relayers on this network without a rule of their own alert below 5 SOL.',
      );
      expect(await tab.page.locator('main form, main input').count()).toBe(0);
      expect(await tab.page.getByRole('button', { name: /threshold/ }).count()).toBe(0);
      expect(await texts(tab.page.locator('main button'))).toEqual(['Previous', 'Next']);
    });

    it('says what to do about an unknown network, and fits a 390 px screen', async () => {
      const tab = await open(app().apiKey, '#/networks/evm:nope', PHONE);
      await tab.page.locator('main [role="alert"]').waitFor();
      expect(await texts(tab.page.locator('main [role="alert"] p'))).toEqual([
        "Could not load network evm:nope: Network with ID 'evm:nope' not found",
        'It does not exist, or it is outside what this key may see.',
      ]);
      await tab.page.goto(`${app().baseUrl}/console/#/networks/evm:sepolia`);
      await alertRule(tab, 'evm:sepolia').waitFor();
      expect(await texts(tab.page.locator('main section h2'))).toEqual(['sepolia evm:sepolia']);
      await tab.page.getByRole('link', { name: 'All networks' }).click();
      await tab.page.getByRole('navigation', { name: 'Networks pages' }).waitFor();
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'networks');
    });
  });

  describe('audit', () => {
    interface Record {
      id: string;
      at: string;
      actor: { type: string; id: string | null; name: string };
      action: string;
      resource_type: string;
      resource_id: string;
    }
    const table = (tab: ConsoleTab, filtered = false) =>
      tab.page.getByRole('table', {
        name: filtered ? 'Audit records (filtered)' : 'Audit records',
        exact: true,
      });
    const column = (tab: ConsoleTab, n: number, filtered = false) =>
      texts(table(tab, filtered).locator(`tbody tr > :nth-child(${n})`));

    it('shows the trail newest first as the API answers it: when, who, what, and a readable change', async () => {
      const tab = await open(app().apiKey, '#/audit');
      await table(tab).waitFor();
      const api = (await app().get('/api/v1/audit?page=1&per_page=25').expect(200)).body as {
        data: Record[];
      };
      const when = await table(tab)
        .locator('tbody th time')
        .evaluateAll((times) => times.map((t) => t.getAttribute('datetime')));
      expect(when).toEqual(api.data.map((r) => r.at));
      expect(await column(tab, 2)).toEqual(
        api.data.map(
          (r) => `${r.actor.name}${r.actor.type}${r.actor.id === null ? '' : `, id ${r.actor.id}`}`,
        ),
      );
      expect((await column(tab, 2))[0]).toBe('API_KEYadmin, id admin');
      expect(await column(tab, 3)).toEqual(api.data.map((r) => r.action));
      expect(await column(tab, 4)).toEqual(api.data.map((r) => `${r.resource_type}${r.resource_id}`));
      // Oldest last: the relayers and the signer made before any page was opened.
      expect(api.data.slice(-3).map((r) => [r.action, r.resource_id])).toEqual([
        ['signer.create', 'transit-1'],
        ['relayer.create', relayers.solana],
        ['relayer.create', relayers.evm],
      ]);
      // A relayer's record links to its page.
      const rows = table(tab).locator('tbody tr');
      const evmRow = rows.nth(api.data.length - 1);
      await expect(evmRow.getByRole('link', { name: relayers.evm }).getAttribute('href')).resolves.toBe(
        `#/relayers/${relayers.evm}`,
      );
      // An update shows the fields it changed, before and after, as JSON text.
      const sepolia = api.data.findIndex((r) => r.resource_id === 'evm:sepolia');
      expect(api.data[sepolia].action).toBe('network.update');
      expect(await texts(rows.nth(sepolia).locator('td:last-child li'))).toEqual([
        'threshold: null → "250000000000000000"',
        'source: null → "network"',
      ]);
      // A create shows what was made; names are text, never markup.
      const solanaRow = rows.nth(api.data.length - 2);
      expect(await solanaRow.locator('td:last-child p').textContent()).toBe('Created as:');
      expect(await texts(solanaRow.locator('td:last-child li').filter({ hasText: /^name:/ }))).toEqual([
        'name: "<img src=x onerror=alert(1)> solana"',
      ]);
      expect(await tab.page.locator('main img').count()).toBe(0);
      expect(secrets.foundIn((await tab.page.locator('main').textContent()) ?? '')).toEqual([]);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'audit');
    });

    it("filters through the API with the filters in the hash, and shows the API's 400 for a bad since", async () => {
      const tab = await open(app().apiKey, '#/audit');
      await table(tab).waitFor();
      const filters = tab.page.getByRole('form', { name: 'Filter the audit trail' });
      await filters.getByLabel('Resource type').selectOption('relayer');
      await filters.getByLabel('Resource id').fill(relayers.evm);
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await table(tab, true).waitFor();
      expect(new URL(tab.page.url()).hash).toBe(`#/audit?resource_type=relayer&resource_id=${relayers.evm}`);
      const byResource = (
        await app().get(`/api/v1/audit?resource_type=relayer&resource_id=${relayers.evm}`).expect(200)
      ).body as { data: Record[] };
      expect(byResource.data.map((r) => r.action)).toEqual(['relayer.create']);
      expect(await column(tab, 3, true)).toEqual(['relayer.create']);
      expect(await column(tab, 4, true)).toEqual([`relayer${relayers.evm}`]);

      await filters.getByRole('button', { name: 'Clear filters' }).click();
      await table(tab).waitFor();
      await filters.getByLabel('Action').selectOption('network.update');
      await filters.getByLabel('Actor id').fill('admin');
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await table(tab, true).waitFor();
      const updates = (await app().get('/api/v1/audit?actor_id=admin&action=network.update').expect(200))
        .body as { data: Record[] };
      expect(updates.data.map((r) => r.resource_id)).toEqual([
        'solana:devnet',
        'evm:base-sepolia',
        'evm:base-sepolia',
        'evm:sepolia',
      ]);
      expect(await column(tab, 4, true)).toEqual(updates.data.map((r) => `network${r.resource_id}`));

      await filters.getByLabel('Since').fill('yesterday');
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await tab.page.locator('main [role="alert"]').waitFor();
      expect(await texts(tab.page.locator('main [role="alert"] p'))).toEqual([
        'The service refused these filters: since must be an RFC 3339 date and time',
        'Correct the filter it names, or clear the filters.',
      ]);
      expect(distinct(tab.requests.filter((url) => url.includes('since=')))).toEqual([
        `${app().baseUrl}/api/v1/audit?limit=25&action=network.update&actor_id=admin&since=yesterday`,
      ]);
      expect(await filters.getByLabel('Since').inputValue()).toBe('yesterday');

      await filters.getByLabel('Since').fill('');
      await filters.getByLabel('Resource id').fill('nothing-here');
      await filters.getByRole('button', { name: 'Apply filters' }).click();
      await tab.page.locator('main .state.empty').waitFor();
      expect(await tab.page.locator('main .state.empty').textContent()).toBe(
        'No record matches these filters. Widen or clear them to see more.',
      );
    });

    it('shows a key limited to one relayer only the records about it, and fits a 390 px screen', async () => {
      const key = (await createKey(app(), { permissions: ['audit:read'], relayer_ids: [relayers.evm] })).key;
      const tab = await open(key, '#/audit', PHONE);
      await table(tab).waitFor();
      const api = (await as(app(), key).get('/api/v1/audit').expect(200)).body as { data: Record[] };
      expect(api.data.map((r) => [r.action, r.resource_id])).toEqual([['relayer.create', relayers.evm]]);
      expect(await column(tab, 4)).toEqual([`relayer${relayers.evm}`]);
      expect(await tab.page.locator('main .help').nth(1).textContent()).toBe(
        `This key sees only the records about its relayers (${relayers.evm}); records about notifications, signers, networks and keys are not shown to it.`,
      );
      expect(await tab.page.locator('main').textContent()).not.toContain(relayers.solana);
      // Past the oldest record (a cursor at it: the API answers an empty page) says where to go.
      const oldest = api.data[api.data.length - 1];
      const past = Buffer.from(JSON.stringify([oldest.at, oldest.id])).toString('base64url');
      await tab.page.goto(`${app().baseUrl}/console/#/audit?cursor=${past}`);
      await tab.page.locator('main .state.empty').waitFor();
      expect(await tab.page.locator('main .state.empty').textContent()).toBe(
        'No older record. Go to the newest records.',
      );
      expect(tab.requests.at(-1)).toBe(`${app().baseUrl}/api/v1/audit?limit=25&cursor=${past}`);
      await tab.page.getByRole('link', { name: 'Go to the newest records' }).click();
      await table(tab).waitFor();
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'audit');
    });

    it('says a signing key may have been replaced where the masked snapshots of a rotation show no change', async () => {
      const hook = uid('hook');
      await app()
        .post('/api/v1/notifications', {
          id: hook,
          url: 'https://hooks.example.com/rotated',
          signing_key: secrets.add(`old-signing-key-${randomBytes(16).toString('hex')}`),
        })
        .expect(201);
      await app()
        .post(`/api/v1/notifications/${hook}/signing-key`, {
          signing_key: secrets.add(`new-signing-key-${randomBytes(16).toString('hex')}`),
          overlap_seconds: 0,
        })
        .expect(200);
      const records = (await app().get(`/api/v1/audit?resource_id=${hook}`).expect(200)).body as {
        data: Array<Record & { before: object | null; after: object | null }>;
      };
      // The record of the rotation: the key is never in it, so both sides read the same.
      expect(records.data.map((r) => r.action)).toEqual(['notification.update', 'notification.create']);
      expect(records.data[0].before).toEqual(records.data[0].after);
      const tab = await open(app().apiKey, `#/audit?resource_id=${hook}`);
      await table(tab, true).locator('tbody tr').nth(1).waitFor();
      expect(await texts(table(tab, true).locator('tbody tr:first-child td:last-child'))).toEqual([
        'signing key replaced, or nothing changed (the key is never shown)',
      ]);
      expect(secrets.foundIn((await tab.page.locator('main').textContent()) ?? '')).toEqual([]);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await app().delete(`/api/v1/notifications/${hook}`).expect(200);
    });
  });

  describe('configuration', () => {
    const exported = async (token: string) =>
      ((await as(app(), token).get('/api/v1/config').expect(200)).body as { data: ConfigFile }).data;
    interface ConfigFile {
      networks: object[];
      signers: object[];
      notifications: object[];
      relayers: { id: string }[];
    }

    it('explains the export, previews it, and downloads the file the API answers', async () => {
      const tab = await open(app().apiKey, '#/configuration');
      const counts = tab.page.locator('main dl.config-counts');
      await counts.waitFor();
      const file = await exported(app().apiKey);
      expect(await pairsOf(counts)).toEqual([
        ['Networks', String(file.networks.length)],
        ['Signers', String(file.signers.length)],
        ['Notifications', String(file.notifications.length)],
        ['Relayers', String(file.relayers.length)],
      ]);
      expect(await pairsOf(counts)).toEqual([
        ['Networks', '4'],
        ['Signers', '3'],
        ['Notifications', '0'],
        ['Relayers', '2'],
      ]);
      // The secrets it leaves out, named as the variables to set (docs/reference/config-file.md).
      await expect(tab.page.locator('main details summary').textContent()).resolves.toBe(
        '6 environment variables to set',
      );
      expect(await texts(tab.page.locator('main details li'))).toEqual([
        'NETWORK_EVM_SEPOLIA_RPC_URL_0',
        'SIGNER_KEY_ONE_KEY',
        'SIGNER_OPS_SIGNER_KEY',
        'SIGNER_TRANSIT_1_ADDRESS',
        'SIGNER_TRANSIT_1_ROLE_ID',
        'SIGNER_TRANSIT_1_SECRET_ID',
      ]);
      const [download] = await Promise.all([
        tab.page.waitForEvent('download'),
        tab.page.getByRole('button', { name: 'Download configuration' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('config.json');
      const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as unknown;
      expect(saved).toEqual(await exported(app().apiKey));
      await expect(tab.page.locator('main p.outcome.ok').textContent()).resolves.toBe(
        'Downloaded config.json: find it in your browser’s downloads.',
      );
      expect(tab.requests.filter((url) => url.includes('/api/v1/config'))).toEqual([
        `${app().baseUrl}/api/v1/config`,
        `${app().baseUrl}/api/v1/config?download=true`,
      ]);
      expect(secrets.foundIn(JSON.stringify(saved))).toEqual([]);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'configuration');
    });

    it('tells a key limited to some relayers that its export holds only those, and fits a 390 px screen', async () => {
      const key = (await createKey(app(), { permissions: ['config:read'], relayer_ids: [relayers.solana] }))
        .key;
      const tab = await open(key, '#/configuration', PHONE);
      await tab.page.locator('main dl.config-counts').waitFor();
      expect(await tab.page.locator('main .scope-note').textContent()).toBe(
        `This key is limited to the relayers ${relayers.solana}: its export holds only those relayers.`,
      );
      const [download] = await Promise.all([
        tab.page.waitForEvent('download'),
        tab.page.getByRole('button', { name: 'Download configuration' }).click(),
      ]);
      const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as ConfigFile;
      expect(saved).toEqual(await exported(key));
      expect(saved.relayers.map((r) => r.id)).toEqual([relayers.solana]);
      // Only the signers of its scope, none here (docs/reference/keys-and-audit.md#36-signers-and-notification-targets).
      expect(await pairsOf(tab.page.locator('main dl.config-counts'))).toEqual([
        ['Networks', '4'],
        ['Signers', '0'],
        ['Notifications', '0'],
        ['Relayers', '1'],
      ]);
      expect(await documentWidth(tab.page)).toBeLessThanOrEqual(PHONE.width);
      expect(await seriousViolations(tab.page)).toEqual([]);
      await screenshot(tab.page, 'configuration');
    });
  });
});
