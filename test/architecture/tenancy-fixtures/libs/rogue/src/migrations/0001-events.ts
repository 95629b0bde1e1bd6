// Schema files create the column and may name it as they like.
export const up = 'ALTER TABLE events DELETE WHERE project_id = 0';
