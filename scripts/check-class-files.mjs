// `npm run check`: every exported class of src/ is found by its file name. The rule:
// 1. A file is named after a class it exports, the kebab-case of the class, with Nest's suffix as the
//    file's own (DatabaseLifecycle in database-lifecycle.ts, RelayersService in relayers.service.ts).
// 2. Beside that class the file exports no other class, except errors (a name ending in Error, or a class
//    extending an error or an exception), which sit beside the code that throws them.
// 3. A file of one kind holds several of its kind and may have no namesake: DTOs and responses in
//    *.dto.ts, errors in *.errors.ts, rules (…Rules) in *.validation.ts.
// 4. The classes left where they are, each with its reason, are in ALLOWED.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SUFFIXES = ['module', 'controller', 'service', 'repository', 'guard', 'interceptor', 'pipe', 'filter'];
SUFFIXES.push('middleware', 'entity', 'dto', 'errors');
/** `file: class` left where it is, with the reason. */
const ALLOWED = new Map([
  ['src/catalogue/catalogue.ts: SecretKey', 'its bytes are readable only inside that file (revealKey)'],
]);

const kebab = (name) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

/** The file a class belongs in, without `.ts`: RelayersService -> relayers.service. */
function fileOf(name) {
  const k = kebab(name);
  const suffix = SUFFIXES.find((s) => k.endsWith(`-${s}`));
  return suffix ? `${k.slice(0, -suffix.length - 1)}.${suffix}` : k;
}

const named = (base, name) => base === fileOf(name);

function ofItsKind(base, name) {
  if (base.endsWith('.dto')) return true;
  if (/(\.|-)errors$/.test(base)) return /(Error|Answer)$/.test(name);
  if (base.endsWith('.validation')) return name.endsWith('Rules');
  return false;
}

const files = execFileSync('git', ['ls-files', 'src'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.includes('/migrations/'));
const misplaced = [];
for (const file of files) {
  const full = path.join(root, file);
  if (!fs.existsSync(full)) continue;
  const base = path.basename(file, '.ts');
  const source = fs.readFileSync(full, 'utf8');
  const classes = [...source.matchAll(/^export (?:abstract )?class (\w+)(?:<[^{]*?>)?(?: extends (\w+))?/gm)];
  const hasNamesake = classes.some(([, name]) => named(base, name));
  for (const [, name, parent = ''] of classes) {
    if (named(base, name) || ofItsKind(base, name) || ALLOWED.has(`${file}: ${name}`)) continue;
    if (/(Error|Exception)$/.test(name) || /(Error|Exception)$/.test(parent)) continue;
    misplaced.push(
      `${file}: class ${name} (expected in ${hasNamesake ? 'a file of its own, ' : ''}${fileOf(name)}.ts)`,
    );
  }
}
if (misplaced.length > 0) {
  process.stderr.write(`Classes not in the file their name suggests:\n${misplaced.join('\n')}\n`);
  process.exit(1);
}
