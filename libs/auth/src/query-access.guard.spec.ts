import { ConfigError, loadConfig } from '@analytics/config';
import { ProjectAccessGuard } from './project-access.guard';
import { QueryAccessGuard, regionRefusal } from './query-access.guard';

describe('regionRefusal', () => {
  const hosts = [
    { host: 'api.example.com', region: 'US' },
    { host: 'eu.example.com', region: 'EU' },
    { host: 'eu2.example.com', region: 'EU' },
  ];

  it('lets a host serve its own region, and any host the setting does not name serve all', () => {
    expect(regionRefusal(hosts, 'eu.example.com', { id: 1, region: 'EU' })).toBeUndefined();
    expect(regionRefusal(hosts, 'EU.EXAMPLE.COM', { id: 1, region: 'EU' })).toBeUndefined();
    expect(regionRefusal(hosts, 'query.analytics.svc', { id: 1, region: 'IN' })).toBeUndefined();
    expect(regionRefusal([], 'eu.example.com', { id: 1, region: 'US' })).toBeUndefined();
  });

  it('names the first host of the project’s region, or says none serves it', () => {
    expect(regionRefusal(hosts, 'api.example.com', { id: 7, region: 'EU' })).toBe(
      'project 7 keeps its data in the EU region: send this query to eu.example.com (api.example.com serves US projects only)',
    );
    expect(regionRefusal(hosts, 'eu2.example.com', { id: 7, region: 'IN' })).toBe(
      'project 7 keeps its data in the IN region, which no query host serves (eu2.example.com serves EU projects only)',
    );
  });
});

describe('QueryAccessGuard', () => {
  it('refuses, at start, a region no project can have', () => {
    const config = loadConfig({ QUERY_REGION_HOSTS: 'eu.example.com=EU,apac.example.com=APAC' });
    expect(() => new QueryAccessGuard({} as ProjectAccessGuard, config)).toThrow(ConfigError);
    expect(() => new QueryAccessGuard({} as ProjectAccessGuard, config)).toThrow(
      'QUERY_REGION_HOSTS gives apac.example.com the region APAC; project regions are US, EU, IN',
    );
  });
});
