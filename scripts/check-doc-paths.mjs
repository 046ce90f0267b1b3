// `npm run check:paths`: the files the docs cite exist.
//
// Reads README.md, docs/**/*.md but docs/history/ (a record of how things were), and the unreleased
// section of CHANGELOG.md (a released section describes the tree as it was then). A citation is a
// path starting with one of the repository's folders (`src/`, `test/`, `scripts/`, `bench/`,
// `deploy/`, `examples/`, `console/`, `config/`, `etc/`, `.ci/`), not preceded by a path character
// (so `console/src/x.ts` is one citation, not two, and `./config/keys/a.json`, a path from the
// working directory, or `openzeppelin-relayer/src/…`, another project's file, are none), maybe
// followed by `#anchor` or `:line`: the file or folder must exist, and the line number must be one
// of its lines. A path with a placeholder (`<resource>`), `*` or `**` is a pattern: at least one file
// must match it; `{a,b}` expands into one pattern per choice, each of which must match. A file name
// alone in a code span (`` `fan-out-limit.ts` ``, cited beside its folder) must be the name of a
// source file somewhere in the repository. Not read: Markdown link targets (`npm run check:links`
// checks them), and in fenced code (commands, whose paths may be files they create) only what
// /work/shared/hooks/before-stop checks, `src/` files with a .ts, .tsx, .js or .mjs extension.
// `src/widgets/` (and its spec, `test/api/widgets/`) is the made-up resource of "adding a resource" in docs/architecture.md, as that hook
// treats it. Each failure names file:line; the last line is "N citations checked, N problems".
// Node built-ins only.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'test', 'scripts', 'bench', 'deploy', 'examples', 'console', 'config', 'etc', '.ci'];
const EXAMPLE = /^src\/widgets\/|^test\/api\/widgets\/|^widgets?\.|Widgets\.ts$/;
const FENCED = /^src\/.*\.(ts|tsx|js|mjs)$/;
const CITATION = new RegExp(
  `(?<![A-Za-z0-9_./<>*{}-]|\\]\\()((?:${FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[A-Za-z0-9_./<>*{},@-]*)(?:#[A-Za-z0-9_-]*|:(\\d+)(?:-\\d+)?)?`,
  'g',
);
const FILE_NAME = /`([A-Za-z0-9_<>*-][A-Za-z0-9_<>*.-]*\.(?:ts|tsx|mjs|cjs|js|sh))`/g;
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage', 'data']);

/** Every file and folder of the repository, relative to its root, with forward slashes. */
function treeOf(dir, base = '') {
  const entries = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const relative = base + entry.name;
    if (entry.isDirectory())
      entries.push(relative + '/', ...treeOf(path.join(dir, entry.name), relative + '/'));
    else entries.push(relative);
  }
  return entries;
}

/** `a/{b,c}/d` as `a/b/d` and `a/c/d`. */
export function expandBraces(pattern) {
  const m = /\{([^{}]*)\}/.exec(pattern);
  if (!m) return [pattern];
  return m[1]
    .split(',')
    .flatMap((choice) =>
      expandBraces(pattern.slice(0, m.index) + choice + pattern.slice(m.index + m[0].length)),
    );
}

/** A pattern's regular expression: `**` any folders, `*` and `<placeholder>` any part of one name. */
export function patternRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    if (pattern.startsWith('**/', i)) {
      source += '(?:[^/]+/)*';
      i += 2;
    } else if (pattern[i] === '*') source += '[^/]*';
    else if (pattern[i] === '<') {
      i = pattern.indexOf('>', i);
      source += '[^/]+';
    } else source += pattern[i].replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}/?$`);
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The [start, end) offsets of the fenced code blocks of a Markdown text. */
function fencedRanges(text) {
  const ranges = [];
  let open = null;
  for (const m of text.matchAll(/^ *(```+|~~~+).*$/gm)) {
    if (open === null) open = { index: m.index, fence: m[1] };
    else if (m[1].startsWith(open.fence[0]) && m[1].length >= open.fence.length) {
      ranges.push([open.index, m.index]);
      open = null;
    }
  }
  return ranges;
}

/** The citations of one document's text: [{ line, path, lineNumber? }] and [{ line, name }]. */
export function citationsIn(text) {
  const fenced = fencedRanges(text);
  const inFence = (index) => fenced.some(([start, end]) => index >= start && index < end);
  const paths = [];
  for (const m of text.matchAll(CITATION)) {
    // A sentence's full stop or comma after the path is not part of it.
    const cited = m[1].replace(/[.,]+$/, '');
    if (EXAMPLE.test(cited) || (inFence(m.index) && !FENCED.test(cited))) continue;
    paths.push({
      line: lineOf(text, m.index),
      path: cited,
      lineNumber: m[2] === undefined ? undefined : Number(m[2]),
    });
  }
  const names = [];
  for (const m of text.matchAll(FILE_NAME)) {
    if (EXAMPLE.test(m[1]) || inFence(m.index)) continue;
    names.push({ line: lineOf(text, m.index), name: m[1] });
  }
  return { paths, names };
}

/** The problem with one cited path, or null. */
export function pathProblem(cited, lineNumber, tree) {
  const isPattern = /[<*{]/.test(cited);
  if (!isPattern) {
    const file = path.join(root, cited);
    if (!fs.existsSync(file)) return `${cited}: no such file or folder`;
    if (lineNumber !== undefined) {
      const lines = fs.readFileSync(file, 'utf8').split('\n').length;
      if (lineNumber < 1 || lineNumber > lines) return `${cited}:${lineNumber}: the file has ${lines} lines`;
    }
    return null;
  }
  const unmatched = expandBraces(cited).filter((p) => !tree.some((entry) => patternRegExp(p).test(entry)));
  return unmatched.length === 0 ? null : `${cited}: no file matches ${unmatched.join(', ')}`;
}

/** The documents read: README.md, docs/**, and CHANGELOG.md's unreleased section. */
function documents(tree) {
  const docs = tree.filter(
    (entry) =>
      entry === 'README.md' ||
      (entry.startsWith('docs/') && !entry.startsWith('docs/history/') && entry.endsWith('.md')),
  );
  const result = docs.map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }));
  const changelog = path.join(root, 'CHANGELOG.md');
  if (fs.existsSync(changelog)) {
    const text = fs.readFileSync(changelog, 'utf8');
    const start = text.search(/^## \[?Unreleased\]?/im);
    if (start >= 0) {
      const end = text.slice(start + 1).search(/^## /m);
      // Blank lines instead of what comes before, so that line numbers stay the file's.
      const section = end < 0 ? text.slice(start) : text.slice(start, start + 1 + end);
      result.push({ file: 'CHANGELOG.md', text: '\n'.repeat(lineOf(text, start) - 1) + section });
    }
  }
  return result;
}

function main() {
  const tree = treeOf(root);
  const names = new Set(tree.map((entry) => path.posix.basename(entry)));
  let citations = 0;
  let count = 0;
  const fail = (file, line, message) => {
    count += 1;
    console.log(`${file}:${line}: ${message}`);
  };
  for (const { file, text } of documents(tree)) {
    const found = citationsIn(text);
    for (const c of found.paths) {
      citations += 1;
      const problem = pathProblem(c.path, c.lineNumber, tree);
      if (problem) fail(file, c.line, problem);
    }
    for (const c of found.names) {
      citations += 1;
      const matches = /[<*]/.test(c.name)
        ? [...names].some((name) => patternRegExp(c.name).test(name))
        : names.has(c.name);
      if (!matches) fail(file, c.line, `${c.name}: no file of that name in the repository`);
    }
  }
  console.log(`${citations} citations checked, ${count} problems`);
  process.exit(count === 0 ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
