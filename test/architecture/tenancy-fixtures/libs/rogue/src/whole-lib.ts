import * as tenancy from '@analytics/tenancy';

export const make = (id: number) => tenancy['projectScope'](id);
