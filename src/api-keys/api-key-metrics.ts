import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsService } from '../metrics';
import { ApiKeysRepository } from './api-keys.repository';

/** docs/reference/keys-and-audit.md#43-expiry-you-can-see-coming: read at each scrape. */
@Injectable()
export class ApiKeyMetrics {
  constructor(metrics: MetricsService, keys: ApiKeysRepository) {
    new Gauge({
      name: 'api_key_expiry_timestamp_seconds',
      help: 'When each live API key with an expiry expires (Unix time, seconds)',
      labelNames: ['key_id', 'name'] as const,
      registers: [metrics.registry],
      async collect() {
        // Without the database the last samples stay: an outage does not resolve expiry alerts.
        const live = await keys.findLiveExpiring(new Date()).catch(() => null);
        if (live === null) return;
        // Keys revoked or expired since the last scrape leave the gauge.
        this.reset();
        for (const key of live) {
          if (key.expiresAt) this.set({ key_id: key.id, name: key.name }, key.expiresAt.getTime() / 1000);
        }
      },
    });
  }
}
