import type { ProjectScope } from '@analytics/tenancy';

export const forged = { projectId: 1 } as unknown as ProjectScope;
