export const load = async (id: number) => (await import('@analytics/tenancy')).projectScope(id);
