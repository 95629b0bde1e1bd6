import { defineConfig } from '@hey-api/openapi-ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

type Parameter = { name: string; in: string; required?: boolean; schema?: object };
type Operation = { parameters?: Parameter[] };
type Document = { paths: Record<string, Record<string, Operation>> };

/**
 * The served document leaves out path parameters that Nest reads through guards (`{projectId}`,
 * `{organizationId}`): every `{name}` in a path template is declared here, so the generated
 * functions take it. Ids are integers; other names (`entityType`, `name`, `key`) strings.
 */
function withPathParameters(document: Document): Document {
  for (const [path, operations] of Object.entries(document.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const operation of Object.values(operations)) {
      const declared = new Set((operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name));
      const missing = names.filter((n) => !declared.has(n));
      operation.parameters = [
        ...(operation.parameters ?? []),
        ...missing.map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: { type: /Id$|^id$/.test(name) ? 'integer' : 'string' },
        })),
      ];
    }
  }
  return document;
}

/**
 * The typed client, generated from the checked-in copy of the OpenAPI document the services serve at
 * /api/docs/openapi.json (refresh the copy with `npm run console:openapi` against a running
 * standalone, then `npm run console:client`). The output is checked in too, so a build never
 * depends on a running server or on the generator.
 */
export default defineConfig({
  input: withPathParameters(JSON.parse(readFileSync(resolve(__dirname, 'openapi.json'), 'utf8')) as Document) as never,
  output: resolve(__dirname, 'src/api/generated'),
});
