/** Styles are bundled by esbuild (scripts/build-console.mjs). */
declare module '*.css';
