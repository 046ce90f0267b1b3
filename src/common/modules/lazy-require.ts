import { createRequire } from 'node:module';

const requireFromHere = createRequire(__filename);

/**
 * A package loaded on its first use instead of at start (RPC clients, undici, the Redis client,
 * pino-pretty): the returned function loads it once and hands back the same module after.
 * Through `require`, i.e. the package's CommonJS build, as every other package of the service:
 * `import()` would load the ES module build of those that have one (viem, @solana/kit,
 * @stellar/stellar-sdk), a second module graph beside the CommonJS one, measured at about 8 MB
 * more RSS under the create load (docs/performance.md).
 */
export function lazyRequire<T>(name: string): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= Promise.resolve().then(() => requireFromHere(name) as T));
}
