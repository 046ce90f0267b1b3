import { api, read, readPage, type Schemas } from '../api/client';
import { Empty, Loaded, Pager, PageTitle, Table, useLoad } from '../components';
import { href, location, navigate } from '../router';
import { pageOf } from './page-query';

type Signer = Schemas['SignerResponse'];

const PER_PAGE = 25;
const ADDRESS_LABEL = { evm: 'EVM', solana: 'Solana', stellar: 'Stellar' } as const;

const HEAD = ['Signer', 'Type', 'Addresses', 'Configuration'];

/** `#/signers`: every signer, a page at a time; `#/signers/<id>`: one. Read only. */
export function SignersPage({ segments }: { segments: string[] }) {
  return segments.length > 0 ? <SignerPage id={segments[0]} /> : <SignerList />;
}

/** Every signer, a page at a time (GET /api/v1/signers): never a key or a credential. */
function SignerList() {
  const page = pageOf(location.value.query);
  const [load, reload] = useLoad(
    () => readPage(api.GET('/api/v1/signers', { params: { query: { page, per_page: PER_PAGE } } })),
    [page],
  );
  return (
    <>
      <PageTitle>Signers</PageTitle>
      <p class="help page-intro">
        The keys relayers sign with. Signers that hold a key (plain or keystore in the configuration file, or
        created through the API) are answered as type local; hosted signers show only their non-secret
        settings. No key or credential is ever shown.
      </p>
      <Loaded load={load} what="signers" retry={reload}>
        {({ items, pagination }) =>
          items.length === 0 ? (
            <Empty>
              {pagination.total_items > 0 ? (
                <>
                  This page is past the last signer. <a href={href(['signers'])}>Go to the first page</a>.
                </>
              ) : (
                'No signers yet. Add one to the configuration file (docs/reference/networks-and-signers.md) or create one with POST /api/v1/signers.'
              )}
            </Empty>
          ) : (
            <>
              <Table caption="Signers" head={HEAD}>
                {items.map((signer) => (
                  <SignerRow signer={signer} key={signer.id} />
                ))}
              </Table>
              <Pager
                pagination={pagination}
                label="Signers"
                onPage={(next) => navigate(['signers'], { page: next })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/** One signer (GET /api/v1/signers/{signer_id}). */
function SignerPage({ id }: { id: string }) {
  const [load, reload] = useLoad(
    () => read(api.GET('/api/v1/signers/{signer_id}', { params: { path: { signer_id: id } } })),
    [id],
  );
  return (
    <>
      <PageTitle>Signer {id}</PageTitle>
      <p>
        <a href={href(['signers'])}>All signers</a>
      </p>
      <Loaded load={load} what={`signer ${id}`} retry={reload}>
        {(signer) => (
          <Table caption={`Signer ${signer.id}`} head={HEAD}>
            <SignerRow signer={signer} />
          </Table>
        )}
      </Loaded>
    </>
  );
}

function SignerRow({ signer }: { signer: Signer }) {
  const addresses = (Object.keys(ADDRESS_LABEL) as (keyof typeof ADDRESS_LABEL)[]).filter(
    (type) => signer.addresses[type] !== undefined,
  );
  return (
    <tr>
      <th scope="row" class="id signer-id">
        <a href={href(['signers', signer.id])}>{signer.id}</a>
      </th>
      <td>{signer.type}</td>
      <td>
        {addresses.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <dl class="pairs">
            {addresses.map((type) => (
              <div key={type}>
                <dt>{ADDRESS_LABEL[type]}</dt>
                <dd class="mono address">{signer.addresses[type]}</dd>
              </div>
            ))}
          </dl>
        )}
      </td>
      <td>
        <ConfigValues config={signer.config} />
      </td>
    </tr>
  );
}

/** A signer's config as the API answers it (secrets are never in it; masked URLs stay masked), as text. */
function ConfigValues({ config }: { config: object }) {
  const entries = Object.entries(config);
  if (entries.length === 0) return <span class="muted">nothing to show (no secret is ever shown)</span>;
  return (
    <dl class="pairs">
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd class="mono">
            {value === null ? (
              <span class="muted">not set</span>
            ) : typeof value === 'object' && !Array.isArray(value) ? (
              <ConfigValues config={value as object} />
            ) : typeof value === 'string' ? (
              value
            ) : (
              JSON.stringify(value)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
