import { useEffect, useState } from 'preact/hooks';
import { loadSignInMethods, signIn, signInMethods, signOutReason } from '../session';

/**
 * Sign in through the identity provider (its page signs the person in and sends the browser back with
 * a session cookie), or with an API key: typed here, checked with the API, and kept in this tab's
 * sessionStorage only. The service says which it offers (GET /api/v1/auth/methods).
 */
export function SignIn() {
  const methods = signInMethods.value;
  useEffect(() => {
    void loadSignInMethods();
  }, []);
  const message = signOutReason.value;
  if (methods === null) {
    return (
      <main class="sign-in" aria-busy="true">
        <h1>Relayer console</h1>
      </main>
    );
  }
  const { oidc } = methods;
  return (
    <main class="sign-in">
      <h1>Relayer console</h1>
      {oidc !== null && (
        <>
          {message && (
            <p class="outcome error" role="alert">
              {message}
            </p>
          )}
          <a class="provider" href={oidc.login_url}>
            Sign in with {oidc.name}
          </a>
        </>
      )}
      {oidc !== null && methods.api_key && <p class="separator">or with an API key</p>}
      {methods.api_key && <KeyForm reason={oidc === null ? message : null} />}
    </main>
  );
}

function KeyForm({ reason }: { reason: string | null }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(await signIn(key.trim()));
    setBusy(false);
  };
  const message = problem ?? reason;
  return (
    <form onSubmit={(event) => void submit(event)}>
      <label for="api-key">API key</label>
      <input
        id="api-key"
        name="api-key"
        type="password"
        autocomplete="off"
        spellcheck={false}
        required
        value={key}
        onInput={(event) => setKey(event.currentTarget.value)}
        aria-describedby="api-key-help"
      />
      <p id="api-key-help" class="help">
        The service's API_KEY or a key made with POST /api/v1/api-keys. It stays in this tab only and is
        forgotten when you sign out or close the tab.
      </p>
      {message && (
        <p class="outcome error" role="alert">
          {message}
        </p>
      )}
      <button type="submit" disabled={busy || key.trim() === ''}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
