import type { ComponentChildren } from 'preact';
import { AlertChannelsSection } from './alert-channels';
import { NotificationsSection } from './notifications';
import { ApiKeysPage } from './api-keys';
import { AuditPage } from './audit';
import { ConfigurationPage } from './configuration';
import { NetworksPage } from './networks';
import { RelayerPage } from './relayer';
import { RelayersPage } from './relayers';
import { SignersPage } from './signers';

/** A section of the console: where it lives, its name in the menu, what the key needs to see it. */
export interface Section {
  path: string;
  title: string;
  permission: string;
  render: (segments: string[]) => ComponentChildren;
}

/** Every page, in menu order. A page file per section; each renders the segments after its path. */
export const SECTIONS: readonly Section[] = [
  {
    path: 'relayers',
    title: 'Relayers',
    permission: 'relayers:read',
    render: (segments) =>
      segments.length ? <RelayerPage id={segments[0]} key={segments[0]} /> : <RelayersPage />,
  },
  {
    path: 'notifications',
    title: 'Notifications',
    permission: 'notifications:read',
    render: (segments) => <NotificationsSection segments={segments} />,
  },
  {
    // A section of its own, beside the targets: a resource of its own in the API, and where an
    // operator looking for Slack, PagerDuty or e-mail looks first.
    path: 'alert-channels',
    title: 'Alert channels',
    permission: 'notifications:read',
    render: (segments) => <AlertChannelsSection segments={segments} />,
  },
  {
    path: 'signers',
    title: 'Signers',
    permission: 'signers:read',
    render: (segments) => <SignersPage segments={segments} />,
  },
  {
    path: 'networks',
    title: 'Networks',
    permission: 'networks:read',
    render: (segments) => <NetworksPage segments={segments} />,
  },
  {
    path: 'api-keys',
    title: 'API keys',
    permission: 'api_keys:manage',
    render: () => <ApiKeysPage />,
  },
  { path: 'audit', title: 'Audit', permission: 'audit:read', render: () => <AuditPage /> },
  {
    path: 'configuration',
    title: 'Configuration',
    permission: 'config:read',
    render: () => <ConfigurationPage />,
  },
];
