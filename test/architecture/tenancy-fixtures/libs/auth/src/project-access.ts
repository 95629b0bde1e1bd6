import { projectScope } from '@analytics/tenancy';

// On the allowlist: creating a scope here is allowed.
export const scopeOf = (project: { id: number }) => projectScope(project.id);
