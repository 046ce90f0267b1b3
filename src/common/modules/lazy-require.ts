import { createRequire } from 'node:module';

const requireFromHere = createRequire(__filename);

/** Through `require`: `import()` would load a second, ESM graph of some packages (docs/performance.md). */
export function lazyRequire<T>(name: string): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= Promise.resolve().then(() => requireFromHere(name) as T));
}
