import { Fragment } from 'preact';
import { api, read, readFile } from '../api/client';
import { Loaded, OutcomeText, PageTitle, useAction, useLoad } from '../components';
import { me } from '../session';

const SECTIONS = [
  ['networks', 'Networks'],
  ['signers', 'Signers'],
  ['notifications', 'Notifications'],
  ['relayers', 'Relayers'],
] as const;

/** The environment variables an export names (`{"type": "env", "value": NAME}`), in file order, once each. */
function variablesOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) variablesOf(item, found);
  } else if (typeof value === 'object' && value !== null) {
    const entry = value as Record<string, unknown>;
    if (entry.type === 'env' && typeof entry.value === 'string' && Object.keys(entry).length === 2) {
      found.add(entry.value);
    } else {
      for (const item of Object.values(entry)) variablesOf(item, found);
    }
  }
  return found;
}

/** Saves the bytes as a file of the browser's downloads: no navigation to the API (it needs the bearer header). */
function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The export (GET /api/v1/config, docs/reference/config-file.md#3-taking-it-back-out): what it is, a
 * preview of what it holds, and the file, downloaded with the signed-in key.
 */
export function ConfigurationPage() {
  const [load, reload] = useLoad(() => read(api.GET('/api/v1/config')), []);
  const [outcome, busy, act] = useAction();
  const scope = me.value?.relayer_ids;
  const download = () =>
    act(async () => {
      const file = await readFile(
        api.GET('/api/v1/config', { params: { query: { download: true } }, parseAs: 'blob' }),
      );
      save(file.blob, file.filename ?? 'config.json');
    }, 'Downloaded config.json: find it in your browser’s downloads.');
  return (
    <>
      <PageTitle>Configuration</PageTitle>
      <p>
        The export is what the service manages, written as a configuration file in the reference system’s
        format (OpenZeppelin Relayer’s config.json): its networks, signers, notifications and relayers. This
        service, or the reference system, can start from it. Runtime state (addresses, disabled relayers,
        check history, deliveries) is not in it.
      </p>
      <p>
        No secret is exported. Signer keys, webhook signing keys and the RPC URLs the API shows masked are
        named as environment variables instead (<code>{'{"type": "env", "value": "…"}'}</code>): set them
        before starting a service on the file. <code>docs/reference/config-file.md</code> describes every
        field.
      </p>
      {scope && (
        <p class="panel scope-note">
          This key is limited to the relayers {scope.join(', ')}: its export holds only those relayers.
        </p>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => void download()}>
          Download configuration
        </button>
      </div>
      <OutcomeText outcome={outcome} />
      <h2>What the file holds</h2>
      <Loaded load={load} what="the configuration" retry={reload}>
        {(file) => {
          const variables = [...variablesOf(file)];
          return (
            <>
              <dl class="facts config-counts">
                {SECTIONS.map(([name, title]) => (
                  <Fragment key={name}>
                    <dt>{title}</dt>
                    <dd>{file[name].length}</dd>
                  </Fragment>
                ))}
              </dl>
              {variables.length === 0 ? (
                <p class="help">It names no environment variable.</p>
              ) : (
                <details>
                  <summary>
                    {variables.length === 1
                      ? '1 environment variable to set'
                      : `${variables.length} environment variables to set`}
                  </summary>
                  <ul class="plain">
                    {variables.map((name) => (
                      <li key={name} class="mono">
                        {name}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </>
          );
        }}
      </Loaded>
    </>
  );
}
