import { Project } from '@analytics/projects';
import { AccountActor, roleAboveActor } from './account-rights';
import { RoleName, ServiceAccount } from './accounts.schema';

const project = (id: number, organizationId = 1) => ({ id, organizationId }) as Project;
const PROJECTS = [project(10), project(11)];
const NOW = new Date();
let nextId = 1;
const account = (
  role: RoleName,
  projects: Record<number, RoleName> = {},
  expires: Date | null = null,
): AccountActor => {
  const id = nextId++;
  return {
    account: { id, organizationId: 1, role, expires } as ServiceAccount,
    memberships: Object.entries(projects).map(([projectId, projectRole]) => ({
      serviceAccountId: id,
      projectId: Number(projectId),
      role: projectRole,
    })),
  };
};

describe('roleAboveActor', () => {
  const admin = account('admin');

  it('names an organization role above the actor’s', () => {
    expect(roleAboveActor(admin, account('owner'), PROJECTS, NOW)).toBe('owner of the organization');
  });

  it('names a project role above the actor’s, on whichever project the target holds it', () => {
    expect(roleAboveActor(admin, account('consumer', { 10: 'owner' }), PROJECTS, NOW)).toBe('owner on project 10');
    expect(roleAboveActor(admin, account('consumer', { 10: 'consumer', 11: 'owner' }), PROJECTS, NOW)).toBe(
      'owner on project 11',
    );
  });

  it('lets an actor change what it equals or outranks, project by project', () => {
    expect(roleAboveActor(admin, account('admin', { 10: 'admin' }), PROJECTS, NOW)).toBeUndefined();
    expect(roleAboveActor(account('owner'), account('owner', { 10: 'owner' }), PROJECTS, NOW)).toBeUndefined();
    // An organization admin who owns project 10 may change that project's other owners.
    expect(
      roleAboveActor(account('admin', { 10: 'owner' }), account('consumer', { 10: 'owner' }), PROJECTS, NOW),
    ).toBeUndefined();
    expect(roleAboveActor(account('admin', { 10: 'owner' }), account('consumer', { 11: 'owner' }), PROJECTS, NOW)).toBe(
      'owner on project 11',
    );
  });

  it('counts what an expired target holds: expiry does not hand an owner to an admin', () => {
    const past = new Date(Date.now() - 1000);
    expect(roleAboveActor(admin, account('consumer', { 10: 'owner' }, past), PROJECTS, NOW)).toBe(
      'owner on project 10',
    );
  });

  it('ignores memberships of projects outside the organization listed', () => {
    expect(roleAboveActor(admin, account('consumer', { 99: 'owner' }), PROJECTS, NOW)).toBeUndefined();
  });
});
