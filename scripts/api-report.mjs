// The public API of the package (src/index.ts) as a report, etc/public-api.md: every export with its
// kind and type, the public members of classes and interfaces. `--check` fails when the exports
// changed without the report being regenerated (`npm run api-report`); docs/extending.md says which
// changes are major, minor or patch.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const entry = path.join(root, 'src', 'index.ts');
const reportFile = path.join(root, 'etc', 'public-api.md');

const configFile = ts.readConfigFile(path.join(root, 'tsconfig.build.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const program = ts.createProgram([entry], { ...options, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(entry);
const moduleSymbol = checker.getSymbolAtLocation(source);

const FORMAT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrayAsGenericType;
const typeText = (type) => checker.typeToString(type, source, FORMAT);
const HIDDEN = ts.ModifierFlags.Private | ts.ModifierFlags.Protected;

/** Marked `@internal` in its doc comment: the service's own, left out of the report and of the typings. */
const isInternal = (declaration) =>
  declaration !== undefined && ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');

/** Public, and declared by the service: what a class inherits from Error or Node's types is not its API. */
function isPublic(symbol) {
  if (symbol.getName().startsWith('#') || symbol.getName().startsWith('__')) return false;
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (!declaration) return true;
  if (isInternal(declaration)) return false;
  const file = declaration.getSourceFile();
  if (program.isSourceFileDefaultLibrary(file) || file.fileName.includes('/node_modules/')) return false;
  return (ts.getCombinedModifierFlags(declaration) & HIDDEN) === 0;
}

const typeParameters = (declaration) =>
  declaration?.typeParameters ? `<${declaration.typeParameters.map((p) => p.getText()).join(', ')}>` : '';

function members(type) {
  const indexes = checker
    .getIndexInfosOfType(type)
    .map(
      (info) =>
        `  ${info.isReadonly ? 'readonly ' : ''}[key: ${typeText(info.keyType)}]: ${typeText(info.type)};`,
    );
  return [...indexes, ...properties(type)];
}

function properties(type) {
  return checker
    .getPropertiesOfType(type)
    .filter(isPublic)
    .map((p) => {
      const declaration = p.valueDeclaration ?? p.declarations?.[0];
      const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
      const memberType = checker.getTypeOfSymbolAtLocation(p, declaration ?? source);
      const signatures = memberType.getCallSignatures();
      if (p.flags & ts.SymbolFlags.Method && signatures.length > 0) {
        return signatures.map((s) => `  ${p.getName()}${checker.signatureToString(s, source, FORMAT)};`);
      }
      const readonly = declaration && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly;
      return [`  ${readonly ? 'readonly ' : ''}${p.getName()}${optional}: ${typeText(memberType)};`];
    })
    .flat()
    .sort();
}

function describe(name, symbol) {
  const flags = symbol.flags;
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  const lines = [];
  const generic = typeParameters(declaration);
  if (flags & ts.SymbolFlags.Class) {
    const staticType = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    const constructors = staticType
      .getConstructSignatures()
      .filter((s) => !isInternal(s.getDeclaration()))
      .map((s) => `  constructor${checker.signatureToString(s, source, FORMAT).replace(/: [^:]+$/, '')};`);
    const statics = members(staticType)
      .filter((line) => !line.startsWith('  prototype'))
      .map((line) => `  static${line.slice(1)}`);
    const instance = members(checker.getDeclaredTypeOfSymbol(symbol));
    lines.push(`class ${name}${generic} {`, ...constructors, ...statics, ...instance, '}');
  } else if (flags & ts.SymbolFlags.Interface) {
    lines.push(`interface ${name}${generic} {`, ...members(checker.getDeclaredTypeOfSymbol(symbol)), '}');
  } else if (flags & ts.SymbolFlags.TypeAlias) {
    const aliased = checker.getDeclaredTypeOfSymbol(symbol);
    // Members only for a type literal: a mapped or generic type (`Readonly<Record<…>>`) has none to list.
    if (declaration && ts.isTypeLiteralNode(declaration.type)) {
      lines.push(`type ${name}${generic} = {`, ...members(aliased), '};');
    } else {
      const text = checker.typeToString(aliased, source, FORMAT | ts.TypeFormatFlags.InTypeAlias);
      lines.push(`type ${name}${generic} = ${text};`);
    }
  } else if (flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    for (const s of type.getCallSignatures()) {
      lines.push(`function ${name}${checker.signatureToString(s, source, FORMAT)};`);
    }
  } else {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    lines.push(`const ${name}: ${typeText(type)};`);
  }
  return lines.join('\n');
}

const exports = checker
  .getExportsOfModule(moduleSymbol)
  .map((s) => [s.getName(), s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s])
  .sort(([a], [b]) => a.localeCompare(b));

const exported = new Set(exports.map(([name]) => name));

const report = [
  '# Public API of relayer-management-service',
  '',
  'Generated by `npm run api-report` from `src/index.ts`; `npm run check` fails when this file and the',
  'exports differ. What a change here means for the version: [extending](../docs/extending.md#versions).',
  '',
  ...exports.flatMap(([name, symbol]) => [`## ${name}`, '', '```ts', describe(name, symbol), '```', '']),
]
  .join('\n')
  // How the checker names a module imported from this CommonJS project: noise, the same in every version.
  .replaceAll(', { with: { "resolution-mode": "import" } })', ')')
  // A type of the service by the name the package exports it under; what is left as `import("./…")` is a
  // type the public API names without exporting it (`--check` fails on it).
  .replace(/import\("\.\/[^"]+"\)\.(\w+)/g, (text, name) => (exported.has(name) ? name : text));

const unexported = [...new Set(report.match(/import\("\.\/[^"]+"\)\.\w+/g) ?? [])];
if (unexported.length > 0) {
  process.stderr.write(
    `The public API names types src/index.ts does not export (export them, or mark what names them ` +
      `@internal):\n${unexported.map((text) => `  ${text}\n`).join('')}`,
  );
  process.exit(1);
}

if (process.argv.includes('--check')) {
  const current = fs.existsSync(reportFile) ? fs.readFileSync(reportFile, 'utf8') : '';
  if (current !== report) {
    process.stderr.write(
      'etc/public-api.md does not match the exports of src/index.ts: run `npm run api-report`, ' +
        'review the difference (docs/extending.md#versions) and commit it.\n',
    );
    process.exit(1);
  }
} else {
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.writeFileSync(reportFile, report);
}
