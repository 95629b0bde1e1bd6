import { AccountsModule, ServiceAccountsService } from '@analytics/accounts';
import { AppConfig } from '@analytics/config';
import { EventDictionaryProvider, IngestModule } from '@analytics/ingest';
import { DictionaryModule } from '@analytics/management';
import { ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, serviceModules } from '@analytics/service-map';
import { TestApp } from '@analytics/testing';
import { DynamicModule, Provider, Type } from '@nestjs/common';

import { EventDictionaryModule, SchemaEventDictionaryProvider } from '../src';

/**
 * The change the lead makes in IngestModule.forRoot: import EventDictionaryModule and provide
 * EventDictionaryProvider as the schema-backed one. Applied here to the module as it is today.
 */
export function withSchemaDictionary(module: DynamicModule | Type<unknown>): DynamicModule | Type<unknown> {
  if (!('module' in module) || module.module !== IngestModule) return module;
  const swap = (provider: Provider) =>
    provider === EventDictionaryProvider
      ? { provide: EventDictionaryProvider, useExisting: SchemaEventDictionaryProvider }
      : provider;
  return {
    ...module,
    imports: [...(module.imports ?? []), EventDictionaryModule],
    providers: (module.providers ?? []).map(swap),
  };
}

/** The services of SERVICES as the standalone mounts them, the gateway using the dictionary, plus the dictionary API with management. */
export function dictionaryRoot(config: AppConfig): DynamicModule {
  return {
    module: class DictionaryTestRoot {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config)),
      AccountsModule,
      serviceModules(config).then((modules) => ({
        module: class DictionaryTestServices {},
        imports: modules.map(withSchemaDictionary),
      })),
      ...(config.runs('management') ? [DictionaryModule] : []),
    ],
  };
}

export const basic = (user: string, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export interface ApiAnswer {
  status: number;
  headers: Headers;
  // Whatever JSON the endpoint answers; the tests assert its shape.
  body: any;
}

/** JSON in, JSON out, with the given credentials. */
export function apiClient(baseUrl: () => string) {
  return async (method: string, path: string, authorization: string, body?: unknown): Promise<ApiAnswer> => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
}

export interface TestTenant {
  organizationId: number;
  projectId: number;
  /** The project token, for /track. */
  token: string;
  /** The project secret, as Basic credentials (acts as admin). */
  secret: string;
  /** Service accounts with these roles on the project, as Basic credentials. */
  owner: string;
  admin: string;
  analyst: string;
  consumer: string;
}

let tenants = 0;

/** A new organization with one project and an account per role: the schema write limit is per organization. */
export async function createTenant(service: TestApp): Promise<TestTenant> {
  const projects = service.app.get(ProjectsService);
  const accounts = service.app.get(ServiceAccountsService);
  const n = ++tenants;
  const organization = await projects.createOrganization(`Org ${n}`);
  const { project, secret } = await projects.createProject(organization.id, `Project ${n}`);
  const account = async (role: 'owner' | 'admin' | 'analyst' | 'consumer') => {
    const created = await accounts.create(organization.id, null, {
      username: `${role}-${n}`,
      role: 'consumer',
      projects: [{ id: project.id, role }],
    });
    return basic(created.view.account.username, created.secret);
  };
  return {
    organizationId: organization.id,
    projectId: project.id,
    token: project.token,
    secret: basic(secret),
    owner: await account('owner'),
    admin: await account('admin'),
    analyst: await account('analyst'),
    consumer: await account('consumer'),
  };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

let inserts = 0;

/** An event for strict /import, with a unique $insert_id. */
export function importEvent(
  event: string,
  properties: Record<string, unknown> = {},
): { event: string; properties: Record<string, unknown> } {
  return {
    event,
    properties: {
      time: nowSeconds() - 60,
      distinct_id: 'user-1',
      $insert_id: `ins-${process.pid}-${++inserts}`,
      ...properties,
    },
  };
}
