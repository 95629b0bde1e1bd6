import { AccountBootstrapService } from '@analytics/accounts';
import { ProjectBootstrapService, ProjectsService } from '@analytics/projects';
import { ServiceRootModule } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';

const owner = `Basic ${Buffer.from('first-owner:first-owner-secret-0001').toString('base64')}`;

/** PATCH /api/app/projects/{id} `identity_merge` (docs/identity.md): settable while the project is empty, never after. */
describe('the identity_merge setting once a project holds events', () => {
  let environment: TestEnvironment;
  let service: TestApp;
  let organizationId: number;

  beforeAll(async () => {
    environment = await createTestEnvironment({
      env: {
        BOOTSTRAP_SERVICE_ACCOUNT_USERNAME: 'first-owner',
        BOOTSTRAP_SERVICE_ACCOUNT_SECRET: 'first-owner-secret-0001',
      },
    });
    service = await startTestApp((config) => ServiceRootModule.forRoot(config), environment.config);
    const created = (await service.app.get(ProjectBootstrapService).ensureDefaultProject())!;
    await service.app.get(AccountBootstrapService).ensureOwner(created.organization.id);
    organizationId = created.organization.id;
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  const patch = async (projectId: number, body: object) => {
    const response = await fetch(`${service.baseUrl}/api/app/projects/${projectId}`, {
      method: 'PATCH',
      headers: { Authorization: owner, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        status: string;
        results?: { identity_merge: string; name: string };
        error?: string;
      },
    };
  };

  it('switches freely while empty; once an event is stored, refuses a switch with 400 and why, and still takes the same mode or a rename', async () => {
    const projects = service.app.get(ProjectsService);
    const { project } = await projects.createProject(organizationId, 'Identity switch');
    expect((await patch(project.id, { identity_merge: 'original' })).body.results?.identity_merge).toBe('original');
    expect((await patch(project.id, { identity_merge: 'simplified' })).body.results?.identity_merge).toBe('simplified');

    const data = JSON.stringify([
      {
        event: 'Viewed',
        properties: {
          token: project.token,
          distinct_id: 'alice',
          time: Math.floor(Date.now() / 1000) - 60,
          $insert_id: 'first',
        },
      },
    ]);
    expect(
      await (await fetch(`${service.baseUrl}/track`, { method: 'POST', body: new URLSearchParams({ data }) })).text(),
    ).toBe('1');

    expect(await patch(project.id, { identity_merge: 'original' })).toEqual({
      status: 400,
      body: {
        status: 'error',
        error: `identity_merge can change only while the project has no events; project ${project.id} already holds events under 'simplified'`,
      },
    });
    expect((await projects.findById(project.id))?.identityMerge).toBe('simplified');
    expect(await patch(project.id, { identity_merge: 'simplified', name: 'Renamed' })).toMatchObject({
      status: 200,
      body: { results: { identity_merge: 'simplified', name: 'Renamed' } },
    });
  });
});
