// `npm run build` runs this after `nest build`: bundles the operator console (console/, docs/console.md)
// into dist/console with content-hashed file names, and writes index.html naming them. esbuild only
// bundles and minifies; `npm run check` type-checks console/ (console/tsconfig.json).
import * as esbuild from 'esbuild';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'console');
const out = path.join(root, 'dist', 'console');

fs.rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: [path.join(source, 'src', 'main.tsx')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome120', 'firefox121', 'safari17'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: path.join(out, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const built = Object.keys(result.metafile.outputs).map((file) =>
  path.relative(out, path.resolve(root, file)),
);
const script = built.find((file) => file.endsWith('.js'));
const style = built.find((file) => file.endsWith('.css'));
if (!script || !style) throw new Error(`the console build wrote no script or no style: ${built.join(', ')}`);

const template = fs.readFileSync(path.join(source, 'index.html'), 'utf8');
const html = template.replace('{{script}}', `/console/${script}`).replace('{{style}}', `/console/${style}`);
fs.writeFileSync(path.join(out, 'index.html'), html);
// What the service checks for at start (src/console/console-files.ts), with the files it serves as immutable.
const manifest = {
  built_at: new Date().toISOString(),
  assets: built.map((file) => ({
    file,
    sha256: crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(out, file)))
      .digest('hex'),
  })),
};
fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
