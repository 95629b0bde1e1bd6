import { sql } from 'drizzle-orm';

// A comment may say project_id = 1: only SQL text is read.
export const events = 'SELECT count() FROM events WHERE project_id = {project:UInt32}';

export const pipelines = (ids: number[]) => sql`select * from pipelines p where p.PROJECT_ID in (${ids.join(',')}) and state <> 'cancelled'`;

export const joined = `SELECT 1 FROM a JOIN b
  ON b.project_id=a.project_id`;
