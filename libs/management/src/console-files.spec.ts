import { CONSOLE_PAGES, consoleRequest } from './console-files';

describe('consoleRequest: what the console answers and what it leaves to the API', () => {
  it('answers index.html at the root and at every page, with or without a trailing slash', () => {
    for (const path of ['/', ...CONSOLE_PAGES, ...CONSOLE_PAGES.map((p) => `${p}/`)])
      expect(consoleRequest(path)).toEqual({ kind: 'page' });
  });

  it("serves Vite's hashed assets by name only", () => {
    expect(consoleRequest('/assets/index-BKKF_YoC.js')).toEqual({ kind: 'asset', file: 'index-BKKF_YoC.js' });
    expect(consoleRequest('/assets/index-Cg2AH0kA.css')).toEqual({ kind: 'asset', file: 'index-Cg2AH0kA.css' });
  });

  it('leaves every API path, and anything that is not a plain asset name, to the API', () => {
    for (const path of [
      '/track',
      '/engage',
      '/import',
      '/groups',
      '/api/query/events',
      '/api/app/me',
      '/api/2.0/export',
      '/healthz',
      '/downloads/x',
      '/events/1',
      '/eventsx',
      '/assets/../package.json',
      '/assets/%2e%2e/package.json',
      '/assets/sub/dir.js',
      '/assets/index.html',
    ]) {
      expect({ path, answer: consoleRequest(path) }).toEqual({ path, answer: undefined });
    }
  });
});
