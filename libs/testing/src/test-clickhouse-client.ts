import { ClickHouseClient, ClickHouseDdl, ClickHouseMigrator, createClickHouseClient } from '@analytics/clickhouse';
import { CLICKHOUSE_MIGRATIONS } from '@analytics/runtime';
import { createTestClickHouse, TestResource } from './test-engines';

/**
 * A fresh ClickHouse with a client on it for one test file: opened before its tests, closed after
 * them. Call at the top of a `describe`; read `client` inside the tests.
 */
export function useTestClickHouseClient(options: { migrate?: boolean } = {}): { readonly client: ClickHouseClient } {
  let resource: TestResource | undefined;
  const handle = {} as { client: ClickHouseClient };
  beforeAll(async () => {
    resource = await createTestClickHouse();
    handle.client = createClickHouseClient(resource.url);
    if (options.migrate)
      await new ClickHouseMigrator(handle.client, new ClickHouseDdl()).migrate(CLICKHOUSE_MIGRATIONS);
  });
  afterAll(async () => {
    await handle.client?.close();
    await resource?.dispose();
  });
  return handle;
}
