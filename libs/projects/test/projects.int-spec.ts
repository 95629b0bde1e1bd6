import { Postgres, POSTGRES_MIGRATIONS, PostgresMigrator } from '@analytics/postgres';
import { createTestDatabase, postgresServerAvailable, PostgresKind, TestResource } from '@analytics/testing';
import { ProjectsService } from '@analytics/projects';
import { projectScope } from '@analytics/tenancy';
import { ProjectsRepository } from '../src/projects.repository';

const kinds: PostgresKind[] = postgresServerAvailable() ? ['server', 'pglite'] : ['pglite'];

describe.each(kinds)('projects storage on Postgres (%s)', (kind) => {
  let resource: TestResource;
  let postgres: Postgres;
  let projects: ProjectsService;

  beforeAll(async () => {
    resource = await createTestDatabase(kind);
    postgres = await Postgres.connect(resource.url);
    projects = new ProjectsService(new ProjectsRepository(postgres));
  });
  afterAll(async () => {
    await postgres.close();
    await resource.dispose();
  });

  it('applies migrations once; a second run changes nothing', async () => {
    const migrator = new PostgresMigrator(postgres);
    const first = await migrator.migrate();
    const second = await migrator.migrate();
    expect(first.applied).toEqual(POSTGRES_MIGRATIONS.map((m) => `${m.version}_${m.name}`));
    expect(second).toEqual({ engine: 'Postgres', applied: [], alreadyApplied: POSTGRES_MIGRATIONS.length });
  });

  it('finds a project by its token and by its secret, never storing the secret', async () => {
    const organization = await projects.createOrganization('Acme');
    const { project, secret } = await projects.createProject(organization.id, 'Web');
    expect(project.secretHash).not.toContain(secret);
    expect((await projects.findByToken(project.token))?.id).toBe(project.id);
    expect((await projects.findBySecret(secret))?.id).toBe(project.id);
    // One character off (a secret ending in "0" would make "…0" the secret itself: 1 run in 16).
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
    expect(await projects.findBySecret(wrong)).toBeUndefined();
    expect(await projects.findByToken('unknown')).toBeUndefined();
  });

  it('gives new projects simplified identity merge; the mode can be changed', async () => {
    const organization = await projects.createOrganization('Identity');
    const { project } = await projects.createProject(organization.id, 'Merged');
    expect(project.identityMerge).toBe('simplified');
    expect((await projects.update(projectScope(project.id), { identityMerge: 'disabled' }))?.identityMerge).toBe(
      'disabled',
    );
    expect((await projects.findById(project.id))?.identityMerge).toBe('disabled');
  });

  it('takes given credentials, and refuses a token that is taken', async () => {
    const organization = await projects.createOrganization('Given');
    const { project, secret } = await projects.createProject(organization.id, 'P', {
      token: `tok${kind}12345`,
      secret: `secret-${kind}-0123456789`,
    });
    expect(project.token).toBe(`tok${kind}12345`);
    expect(secret).toBe(`secret-${kind}-0123456789`);
    await expect(projects.createProject(organization.id, 'Q', { token: `tok${kind}12345` })).rejects.toThrow();
  });
});
