// Rewrites the old citations of the contract by number, in src/ and test/, into links to the
// behaviour reference, using the table "From the old contract numbers" of docs/reference/README.md.
// With N standing for a section number such as 15, 6.2 or 11.3:
//
//   // Keys are scoped per API key (contract N).  ->  // ... (docs/reference/safe-writes.md).
//   describe('... (contract section N)', ...)     ->  describe('... (docs/reference/envelope-and-errors.md)', ...)
//   contract N, N                                 ->  docs/reference/webhooks.md#3-the-delivery-log, docs/...
//
// It handles "contract N", "contract section N", "contract §N", lists ("N and N", "N, N"), any
// case, and a citation broken over two comment lines. A number the table does not
// map is left as it is and reported. The files it changed are then formatted with Prettier. Then run
// `npm run check:refs`.
//
//   node scripts/rewrite-contract-refs.mjs             rewrite in place, list what changed
//   node scripts/rewrite-contract-refs.mjs --dry-run   only list what would change
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const DIRS = ['src', 'test'];
const EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs']);
const dryRun = process.argv.includes('--dry-run');

/** "6.2" -> "docs/reference/relayers.md#2-update", from the index's mapping table. */
function readMapping() {
  const index = fs.readFileSync(path.join(root, 'docs', 'reference', 'README.md'), 'utf8');
  const mapping = new Map();
  for (const m of index.matchAll(/^\|\s*(\d+(?:\.\d+)?)\s*\|\s*\[[^\]]*\]\(([^)]+)\)\s*\|/gm)) {
    mapping.set(m[1], `docs/reference/${m[2]}`);
  }
  if (mapping.size === 0) throw new Error('docs/reference/README.md has no mapping table');
  return mapping;
}

const NUMBER = String.raw`\d+(?:\.\d+)?`;
// "contract", then spaces or comment leaders (a citation may break over two lines), an optional
// "section"/"§", a number, and more numbers joined by ",", "and", "or" or "/".
const CITATION = new RegExp(
  String.raw`([ \t]*)\bcontract((?:\s|\*(?!\/)|\/\/)*)(?:section\s+|§\s*)?(${NUMBER}(?:\s*(?:,|and|or|\/)\s*${NUMBER})*)`,
  'gi',
);

function rewrite(text, mapping, unmapped) {
  return text.replace(CITATION, (whole, before, gap, numbers) => {
    const parts = numbers.split(/(\s*(?:,|and|or|\/)\s*)/);
    const links = parts.map((part, i) => {
      if (i % 2 === 1) return part; // a separator
      const link = mapping.get(part);
      if (!link) unmapped.add(part);
      return link ?? part;
    });
    if (links.some((l, i) => i % 2 === 0 && !l.startsWith('docs/'))) return whole;
    // Broken over two lines: the link starts the second line, after its comment leader.
    return gap.includes('\n') ? `${gap}${links.join('')}` : `${before}${links.join('')}`;
  });
}

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (EXTENSIONS.has(path.extname(entry.name))) yield full;
  }
}

const mapping = readMapping();
const unmapped = new Set();
let files = 0;
const changed = [];
let citations = 0;
for (const dir of DIRS) {
  for (const file of sourceFiles(path.join(root, dir))) {
    const text = fs.readFileSync(file, 'utf8');
    const found = [...text.matchAll(CITATION)].length;
    if (found === 0) continue;
    const next = rewrite(text, mapping, unmapped);
    if (next === text) continue;
    files += 1;
    citations += found;
    const rel = path.relative(root, file);
    const before = text.split('\n');
    next.split('\n').forEach((line, i) => {
      if (line !== before[i]) console.log(`${rel}:${i + 1}: ${line.trim()}`);
    });
    if (!dryRun) fs.writeFileSync(file, next);
    changed.push(file);
  }
}
// A longer title can push a call past the print width: format what changed as the repository does.
if (!dryRun && changed.length > 0) {
  const prettier = spawnSync('npx', ['prettier', '--write', ...changed], { cwd: root, encoding: 'utf8' });
  if (prettier.status !== 0) console.log(`prettier failed:\n${prettier.stderr}`);
}
for (const n of unmapped) console.log(`not in the mapping table, left as it was: ${n}`);
console.log(`${dryRun ? 'would rewrite' : 'rewrote'} ${citations} citations in ${files} files`);
