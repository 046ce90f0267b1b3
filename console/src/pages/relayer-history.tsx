import { api, read, type Relayer } from '../api/client';
import { nativeAmount, showAmount } from '../amounts';
import { BalanceChart } from '../chart';
import { Loaded, useLoad } from '../components';

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * A relayer's balance over the last 7 days (GET /api/v1/relayers/{id}/balance-history?window=7d) in its
 * native unit with its symbol, the alert threshold that applies as a dashed line.
 */
export function BalanceHistoryPanel({
  relayer,
  symbol,
  round,
}: {
  relayer: Relayer;
  symbol: string;
  round: number;
}) {
  const path = { params: { path: { relayer_id: relayer.id } } };
  const [load, reload] = useLoad(
    async () => {
      const [history, alert] = await Promise.all([
        read(
          api.GET('/api/v1/relayers/{relayer_id}/balance-history', {
            params: { path: { relayer_id: relayer.id }, query: { window: '7d' } },
          }),
        ),
        read(api.GET('/api/v1/relayers/{relayer_id}/balance-alert', path)),
      ]);
      return { history, threshold: alert.threshold, to: new Date() };
    },
    [relayer.id, round],
    true,
  );
  const type = relayer.network_type;
  return (
    <section class="panel" aria-labelledby="relayer-balance-history">
      <h2 id="relayer-balance-history">Balance over 7 days</h2>
      <Loaded load={load} what="its balance history" retry={reload}>
        {({ history, threshold, to }) => (
          <BalanceChart
            samples={history.samples}
            from={new Date(to.getTime() - WEEK_MS)}
            to={to}
            toNative={(base) => Number(nativeAmount(base, type).replace(/,/g, ''))}
            label={(base) => showAmount(base, type, symbol).text}
            threshold={threshold}
          />
        )}
      </Loaded>
    </section>
  );
}
