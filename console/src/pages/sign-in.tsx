import { useState } from 'preact/hooks';
import { signIn, signOutReason } from '../session';

/** The key is typed here, checked with the API, and kept in this tab's sessionStorage only. */
export function SignIn() {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(await signIn(key.trim()));
    setBusy(false);
  };
  const message = problem ?? signOutReason.value;
  return (
    <main class="sign-in">
      <h1>Relayer console</h1>
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
    </main>
  );
}
