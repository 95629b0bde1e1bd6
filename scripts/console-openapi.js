#!/usr/bin/env node
// Refreshes the console's checked-in copy of the OpenAPI document from a running standalone
// (default http://localhost:8080; pass another base URL as the argument). Then run
// `npm run console:client` to regenerate the typed client from it.
const { writeFileSync } = require('node:fs');
const { resolve } = require('node:path');

const base = (process.argv[2] ?? 'http://localhost:8080').replace(/\/+$/, '');
fetch(`${base}/api/docs/openapi.json`)
  .then(async (response) => {
    if (!response.ok) throw new Error(`${base}/api/docs/openapi.json answered ${response.status}`);
    const target = resolve(__dirname, '../web/console/openapi.json');
    writeFileSync(target, `${JSON.stringify(await response.json(), null, 2)}\n`);
    process.stdout.write(`wrote ${target}\n`);
  })
  .catch((error) => {
    process.stderr.write(`could not fetch the OpenAPI document: ${error.message}\n`);
    process.exit(1);
  });
