import { createRequire } from 'node:module';

const requireFromHere = createRequire(__filename);

/**
 * Loaded on first use instead of at start. Through `require`: `import()` would load a second, ES
 * module graph of some packages, about 8 MB more RSS (docs/performance.md).
 */
export function lazyRequire<T>(name: string): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= Promise.resolve().then(() => requireFromHere(name) as T));
}
