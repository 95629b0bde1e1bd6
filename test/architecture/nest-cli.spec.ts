import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
}

interface NestCliConfig {
  monorepo: boolean;
  root: string;
  sourceRoot: string;
  compilerOptions: {
    builder: { type: string; options: { filenames: string[]; stripLeadingPaths: boolean } };
    deleteOutDir?: boolean;
  };
  projects: Record<string, NestProject>;
}

const config = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as NestCliConfig;

function foldersOf(parent: string): string[] {
  return readdirSync(join(ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function projectsOf(type: NestProject['type']): [string, NestProject][] {
  return Object.entries(config.projects)
    .filter(([, project]) => project.type === type)
    .sort(([a], [b]) => a.localeCompare(b));
}

describe('nest-cli.json', () => {
  it('is a monorepo whose default project is the standalone', () => {
    expect(config.monorepo).toBe(true);
    expect(config.projects.standalone).toMatchObject({ root: config.root, sourceRoot: config.sourceRoot });
  });

  it('lists every app under apps/ by its folder name, started from src/main.ts', () => {
    const apps = foldersOf('apps');

    expect(projectsOf('application')).toEqual(
      apps.map((app) => [
        app,
        { type: 'application', root: `apps/${app}`, sourceRoot: `apps/${app}/src`, entryFile: 'main' },
      ]),
    );
    for (const app of apps) expect(existsSync(join(ROOT, 'apps', app, 'src', 'main.ts'))).toBe(true);
  });

  it('lists every lib under libs/ by its import name, exported from src/index.ts', () => {
    const libs = foldersOf('libs');

    expect(projectsOf('library')).toEqual(
      libs.map((lib) => [
        `@analytics/${lib}`,
        { type: 'library', root: `libs/${lib}`, sourceRoot: `libs/${lib}/src`, entryFile: 'index' },
      ]),
    );
    for (const lib of libs) expect(existsSync(join(ROOT, 'libs', lib, 'src', 'index.ts'))).toBe(true);
  });

  it('builds with SWC into the layout of npm run build, libs included, leaving the rest of dist alone', () => {
    // SWC compiles files, not import graphs: an app's build must compile the libs it imports too.
    // Kept paths put an app at dist/apps/<app>/src/main.js, where `nest start <app>` looks first.
    expect(config.compilerOptions.builder).toMatchObject({
      type: 'swc',
      options: { filenames: ['apps', 'libs'], stripLeadingPaths: false },
    });
    expect(config.compilerOptions.deleteOutDir).toBe(false);
  });
});
