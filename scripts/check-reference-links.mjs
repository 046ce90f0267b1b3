// `npm run check:refs`: the code's citations of the behaviour reference resolve.
//
// Scans src/, test/ and scripts/ for `docs/reference/<page>.md` and `docs/reference/<page>.md#<anchor>`
// (in comments and in test titles alike) and fails when the page does not exist or has no such
// anchor. An anchor is a heading's GitHub anchor (`### 2.3 Absent and null` is
// `#23-absent-and-null`) or an explicit `<a id="...">`. It also fails on any remaining citation of the
// old contract by number ("contract" followed by a section number, "contract section" or "contract §"
// and a number): that document is not in the repository, so a reader cannot follow it.
// Each failure names file:line; the last line is "N citations checked, N problems". Node built-ins only.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const REFERENCE_DIR = path.join(root, 'docs', 'reference');
const SCANNED = ['src', 'test', 'scripts'];
const EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs', '.sh']);
const CITATION = /docs\/reference\/([A-Za-z0-9_-]+\.md)(?:#([A-Za-z0-9_-]+))?/g;
const OLD_CITATION = /\bcontract(?:'s)?(?:\s|\*(?!\/)|\/\/)*(?:section\s+|§\s*)?\d/gi;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slugify(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*]/g, '') // code spans and emphasis
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a Markdown file: its headings (duplicates numbered as GitHub does) and <a id/name>. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slugify(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (EXTENSIONS.has(path.extname(entry.name))) yield full;
  }
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The problems of one file's text: [{ line, message }], and how many citations it holds. */
export function problemsIn(text, anchorsOfPage) {
  const problems = [];
  let citations = 0;
  for (const m of text.matchAll(CITATION)) {
    citations += 1;
    const [cited, page, anchor] = m;
    const anchors = anchorsOfPage(page);
    if (anchors === null) problems.push({ line: lineOf(text, m.index), message: `${cited}: no such page` });
    else if (anchor !== undefined && !anchors.has(anchor)) {
      problems.push({ line: lineOf(text, m.index), message: `${cited}: ${page} has no anchor #${anchor}` });
    }
  }
  for (const m of text.matchAll(OLD_CITATION)) {
    problems.push({
      line: lineOf(text, m.index),
      message: `"${m[0].replace(/\s+/g, ' ')}…" cites the old contract: cite docs/reference/<page>.md#<anchor> (docs/reference/README.md maps the numbers)`,
    });
  }
  return { problems, citations };
}

function main() {
  const cache = new Map();
  const anchorsOfPage = (page) => {
    if (!cache.has(page)) {
      const file = path.join(REFERENCE_DIR, page);
      cache.set(page, fs.existsSync(file) ? anchorsOf(fs.readFileSync(file, 'utf8')) : null);
    }
    return cache.get(page);
  };
  let citations = 0;
  let count = 0;
  for (const dir of SCANNED) {
    for (const file of sourceFiles(path.join(root, dir))) {
      const result = problemsIn(fs.readFileSync(file, 'utf8'), anchorsOfPage);
      citations += result.citations;
      for (const p of result.problems) {
        count += 1;
        console.log(`${path.relative(root, file)}:${p.line}: ${p.message}`);
      }
    }
  }
  console.log(`${citations} citations checked, ${count} problems`);
  process.exit(count === 0 ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
