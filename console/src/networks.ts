import { api, readPage, type Schemas } from './api/client';
import { DEFAULT_SYMBOL, type NetworkType } from './amounts';
import { useLoad } from './components';
import { can, principalId, SIGNED_IN_STORAGE_PREFIX, signInEpoch } from './session';

/** What the pages use of a network: its name, its type and the symbol of its native unit. */
export type NetworkName = Pick<Schemas['NetworkResponse'], 'network_type' | 'name' | 'symbol'>;

/** Where this tab keeps them for the sign-in (forgotten at sign-out and at another sign-in). */
const STORAGE_KEY = `${SIGNED_IN_STORAGE_PREFIX}networks`;

/** The networks the signed-in caller read: the catalogue changes only with the service's configuration. */
let cached: { who: string | null; epoch: number; networks: Promise<NetworkName[]> } | null = null;

/** What this tab kept for `who`, in an earlier document (a reload, a link opened in the tab); null if nothing. */
function kept(who: string | null): NetworkName[] | null {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as {
      who?: unknown;
      networks?: unknown;
    } | null;
    return who !== null && value?.who === who && Array.isArray(value.networks)
      ? (value.networks as NetworkName[])
      : null;
  } catch {
    return null;
  }
}

/** Every network the caller may read, page after page (GET /api/v1/networks). */
async function readAll(): Promise<NetworkName[]> {
  const all: NetworkName[] = [];
  for (let page = 1; ; page++) {
    const { items, pagination } = await readPage(
      api.GET('/api/v1/networks', { params: { query: { page, per_page: 100 } } }),
    );
    all.push(...items.map(({ network_type, name, symbol }) => ({ network_type, name, symbol })));
    if (items.length === 0 || all.length >= pagination.total_items) return all;
  }
}

/**
 * Every network the caller may read, read once a sign-in: kept in this tab's sessionStorage (names and
 * symbols only), so that a reload or a new document of the tab does not read them again.
 */
export function readNetworks(): Promise<NetworkName[]> {
  const who = principalId();
  const epoch = signInEpoch();
  if (cached === null || cached.who !== who || cached.epoch !== epoch) {
    const stored = kept(who);
    const networks = stored !== null ? Promise.resolve(stored) : readAll();
    if (stored === null) {
      networks.then(
        (read) => {
          if (cached?.networks === networks && principalId() === who && signInEpoch() === epoch)
            window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ who, networks: read }));
        },
        // A failed read is not kept: the next page that asks reads again.
        () => {
          if (cached?.networks === networks) cached = null;
        },
      );
    }
    cached = { who, epoch, networks };
  }
  return cached.networks;
}

/** The symbol of a network's native unit: its own (`symbol` in its configuration), else its type's. */
export type SymbolOf = (networkType: NetworkType, network: string) => string;

/**
 * The symbols of the networks the key may read; a key without networks:read, or a network that
 * names none, gets its type's (ETH, SOL, XLM).
 */
export function useSymbols(): SymbolOf {
  const [load] = useLoad(() => (can('networks:read') ? readNetworks() : Promise.resolve([])), []);
  const networks = load.state === 'ready' ? load.data : [];
  return (networkType, network) =>
    networks.find((n) => n.network_type === networkType && n.name === network)?.symbol ??
    DEFAULT_SYMBOL[networkType];
}
