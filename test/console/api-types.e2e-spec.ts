import fs from 'node:fs';
import path from 'node:path';
import { useTestApp } from '../support/test-app';
import { openApiDocument } from '../support/routes';

// The console's client is typed by console/src/api/schema.d.ts (docs/console.md#the-api-client): the types
// of the OpenAPI document this service serves, written by `npm run console:types`. A change of the API that
// is not carried to the console fails here, naming the command that fixes it.
describe('the console is typed by the API it calls', () => {
  const handle = useTestApp();

  it('has the types of the OpenAPI document the service serves now', async () => {
    const document = await openApiDocument<object>(handle.current);
    // scripts/console-api-types.mjs is an ES module: loaded as such, it has the one rule that makes the file.
    const script = path.resolve(__dirname, '..', '..', 'scripts', 'console-api-types.mjs');
    const { typesFor, TYPES_FILE, grantsFor, GRANTS_FILE } = (await import(script)) as {
      typesFor: (document: object) => Promise<string>;
      TYPES_FILE: string;
      grantsFor: (document: object) => Promise<string>;
      GRANTS_FILE: string;
    };
    for (const [file, current] of [
      [TYPES_FILE, await typesFor(document)],
      [GRANTS_FILE, await grantsFor(document)],
    ]) {
      const committed = fs.readFileSync(file, 'utf8');
      if (committed !== current) {
        throw new Error(
          `${path.relative(process.cwd(), file)} differs from the OpenAPI document: run \`npm run console:types\` and commit it`,
        );
      }
      expect(committed).toBe(current);
    }
  });
});
