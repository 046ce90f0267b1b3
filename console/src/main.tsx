import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import './styles.css';
import { PageTitle } from './components';
import { SECTIONS } from './pages';
import { SignIn } from './pages/sign-in';
import { href, location, navigate } from './router';
import { can, leave, me, person, resume } from './session';

function Shell() {
  const principal = me.value;
  const signedIn = person.value;
  // What the messages call what grants: the key, or the person's roles.
  const grantor = signedIn === null ? 'This key holds' : 'Your roles hold';
  const { segments } = location.value;
  const visible = SECTIONS.filter((section) => can(section.permission));
  const section = visible.find((s) => s.path === segments[0]);
  // A section the key may not open, reached by its address: say why instead of "not found".
  const withheld = section ? undefined : SECTIONS.find((s) => s.path === segments[0]);
  useEffect(() => {
    // The hash as it is now, not as it was at render: a page asked for meanwhile is not replaced.
    const landing = window.location.hash.replace(/^#\/?/, '') === '';
    if (principal !== null && section === undefined && visible.length > 0 && segments.length === 0 && landing)
      navigate([visible[0].path]);
  }, [principal, section, segments.length]);
  if (principal === null) return <SignIn />;
  return (
    <div class="layout">
      <a
        class="skip"
        href="#main"
        onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}
      >
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Relayer console</span>
        <nav aria-label="Sections">
          <ul>
            {visible.map((s) => (
              <li key={s.path}>
                <a href={href([s.path])} aria-current={s === section ? 'page' : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            Signed in as <strong>{principal.name}</strong>
            {signedIn !== null && <span class="muted"> (roles: {signedIn.roles.join(', ') || 'none'})</span>}
          </span>
          <button type="button" onClick={() => void leave()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {section ? (
          section.render(segments.slice(1))
        ) : visible.length === 0 ? (
          <>
            <PageTitle>Nothing to show</PageTitle>
            <p class="state empty">
              {grantor} no permission the console can show ({principal.permissions.join(', ') || 'none'}).
              Sign in with a key that may read relayers, notifications, signers, networks, keys, audit or
              configuration.
            </p>
          </>
        ) : withheld ? (
          <>
            <PageTitle>{withheld.title}</PageTitle>
            <div class="state error" role="alert">
              <p>
                {signedIn === null ? 'This key may not open' : 'Your roles do not let you open'}{' '}
                {withheld.title}: it needs the {withheld.permission} permission (403 Forbidden).
              </p>
              <p>
                {signedIn === null ? 'Sign in with a key that holds it' : 'Ask for a role that holds it'}, or{' '}
                <a href={href([visible[0].path])}>go to {visible[0].title}</a>.
              </p>
            </div>
          </>
        ) : (
          <>
            <PageTitle>Page not found</PageTitle>
            <p class="state empty">
              There is no such page, or this key may not see it.{' '}
              <a href={href([visible[0].path])}>Go to {visible[0].title}</a>
            </p>
          </>
        )}
      </main>
    </div>
  );
}

const root = document.getElementById('app');
if (root !== null) {
  void resume().finally(() => render(<Shell />, root));
}
