import { api, readPage, type Schemas } from './api/client';
import { DEFAULT_SYMBOL, type NetworkType } from './amounts';
import { useLoad } from './components';
import { caller, can } from './session';

type Network = Schemas['NetworkResponse'];

/** The networks the signed-in caller read, once per caller: the catalogue changes only with the service's configuration. */
let cached: { who: string | null; networks: Promise<Network[]> } | null = null;

/** Every network the caller may read (GET /api/v1/networks, page after page), read once a sign-in. */
export function readNetworks(): Promise<Network[]> {
  const who = caller();
  if (cached === null || cached.who !== who) {
    const networks = (async () => {
      const all: Network[] = [];
      for (let page = 1; ; page++) {
        const { items, pagination } = await readPage(
          api.GET('/api/v1/networks', { params: { query: { page, per_page: 100 } } }),
        );
        all.push(...items);
        if (items.length === 0 || all.length >= pagination.total_items) return all;
      }
    })();
    // A failed read is not kept: the next page that asks reads again.
    networks.catch(() => {
      if (cached?.networks === networks) cached = null;
    });
    cached = { who, networks };
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
