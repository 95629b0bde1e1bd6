import { projectScope } from '@analytics/tenancy';

// A spec may make the scopes it tests with.
export const scope = projectScope(1);
