import { projectScope } from '@analytics/tenancy';

// A spec may make the scopes it tests with, and check rows by hand.
export const scope = projectScope(1);
export const check = 'SELECT count() FROM events WHERE project_id = {p:UInt32}';
