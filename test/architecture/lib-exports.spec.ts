import { cruiseModules, REPO_ROOT } from './cruise-imports';

interface LibFigures {
  name: string;
  unused: string[];
}

// The figures of `npm run arch:report`, from the same cruise as the import rules.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { architectureFigures } = require('../../scripts/architecture-report.js') as {
  architectureFigures: (cruise: unknown, root: string) => { libs: LibFigures[] };
};

describe("each lib's index.ts", () => {
  it('exports only names used outside the lib (by another lib, an app, bench/ or test/); its own tests import its src files', async () => {
    const { libs } = architectureFigures(await cruiseModules(REPO_ROOT), REPO_ROOT);

    expect(
      Object.fromEntries(libs.filter((lib) => lib.unused.length > 0).map((lib) => [lib.name, lib.unused])),
    ).toEqual({});
  });
});
