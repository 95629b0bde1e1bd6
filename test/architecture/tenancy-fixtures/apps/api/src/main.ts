export * from '@analytics/tenancy';
