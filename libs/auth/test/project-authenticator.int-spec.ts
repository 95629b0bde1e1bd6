import { Clock, ManualClock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { createTestEnvironment, TestEnvironment } from '@analytics/testing';
import { projectScope } from '@analytics/tenancy';
import { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { AuthModule, ProjectAuthenticator } from '../src';

/** A process that authenticates: the platform on Postgres and the auth layer, on its own clock. */
async function replica(config: AppConfig, clock: Clock): Promise<INestApplicationContext> {
  const moduleRef = await Test.createTestingModule({
    imports: [PlatformModule.forRoot(config, { postgres: true }), AuthModule],
  })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  return moduleRef.createNestApplication({ logger: false }).init();
}

/**
 * Two replicas on one Postgres. What this replica found to be unknown it remembers for 10 s, so a
 * flood of one bad token or secret costs one lookup per 10 s; what another replica creates meanwhile
 * shows here after that time, what this one creates at once.
 */
describe('ProjectAuthenticator, remembering misses', () => {
  let environment: TestEnvironment;
  let here: INestApplicationContext;
  let elsewhere: INestApplicationContext;
  const clock = new ManualClock(Date.now());
  let organizationId: number;
  const credential = () => randomBytes(16).toString('hex');

  beforeAll(async () => {
    environment = await createTestEnvironment();
    here = await replica(environment.config, clock);
    elsewhere = await replica(environment.config, new ManualClock(Date.now()));
    organizationId = (await here.get(ProjectsService).createOrganization('Auth')).id;
  });
  afterAll(async () => {
    await Promise.all([here?.close(), elsewhere?.close()]);
    await environment?.dispose();
  });

  const authenticator = () => here.get(ProjectAuthenticator);

  it('keeps answering "unknown" for a token for 10 s, even once another replica created its project', async () => {
    const token = credential();
    expect(await authenticator().byToken(token)).toBeUndefined();
    const { project } = await elsewhere.get(ProjectsService).createProject(organizationId, 'Elsewhere', { token });
    expect(await authenticator().byToken(token)).toBeUndefined();
    clock.advance(9_000);
    expect(await authenticator().byToken(token)).toBeUndefined();
    clock.advance(1_001);
    expect(await authenticator().byToken(token)).toMatchObject({ id: project.id });
  });

  it('does the same for a wrong secret', async () => {
    const secret = credential();
    expect(await authenticator().bySecret(secret)).toBeUndefined();
    const { project } = await elsewhere
      .get(ProjectsService)
      .createProject(organizationId, 'Secret elsewhere', { secret });
    expect(await authenticator().bySecret(secret)).toBeUndefined();
    clock.advance(10_001);
    expect(await authenticator().bySecret(secret)).toMatchObject({ id: project.id });
  });

  it('finds at once a project this replica creates, whatever was asked before', async () => {
    const token = credential();
    const secret = credential();
    expect(await authenticator().byToken(token)).toBeUndefined();
    expect(await authenticator().bySecret(secret)).toBeUndefined();
    const { project } = await here.get(ProjectsService).createProject(organizationId, 'Here', { token, secret });
    expect(await authenticator().byToken(token)).toMatchObject({ id: project.id });
    expect(await authenticator().bySecret(secret)).toMatchObject({ id: project.id });
  });

  it('forgets at once an old secret this replica rotated, and knows the new one', async () => {
    const { project, secret } = await here.get(ProjectsService).createProject(organizationId, 'Rotating');
    expect(await authenticator().bySecret(secret)).toMatchObject({ id: project.id });
    const rotated = (await here.get(ProjectsService).rotateSecret(projectScope(project.id)))!;
    expect(await authenticator().bySecret(secret)).toBeUndefined();
    expect(await authenticator().bySecret(rotated.secret)).toMatchObject({ id: project.id });
  });

  it('looks up once a token that many requests ask for at once (they share one answer)', async () => {
    const { project } = await here.get(ProjectsService).createProject(organizationId, 'Burst');
    const answers = await Promise.all(Array.from({ length: 20 }, () => authenticator().byToken(project.token)));
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatchObject({ id: project.id });
  });

  it('answers a token or secret longer than any project has as unknown', async () => {
    expect(await authenticator().byToken('t'.repeat(300))).toBeUndefined();
    expect(await authenticator().bySecret('s'.repeat(300))).toBeUndefined();
  });
});
