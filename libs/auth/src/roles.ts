/** The roles of the spec, strongest first. */
export const ROLES = ['owner', 'admin', 'analyst', 'consumer'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { owner: 4, admin: 3, analyst: 2, consumer: 1 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `held` may do what needs `required`. */
export function satisfies(held: Role, required: Role): boolean {
  return RANK[held] >= RANK[required];
}
