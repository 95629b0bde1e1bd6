import { ClickHouseDdl } from './clickhouse-ddl';

const table = {
  name: 'events',
  columns: ['project_id UInt32', 'time DateTime64(3)'],
  engine: 'ReplacingMergeTree(time)',
  orderBy: '(project_id, time)',
  partitionBy: 'toYYYYMM(time)',
  shardingKey: 'cityHash64(project_id)',
  settings: { index_granularity: 8192 },
};

describe('ClickHouseDdl', () => {
  it('writes plain DDL for a single server', () => {
    expect(new ClickHouseDdl().createTable(table)).toEqual([
      'CREATE TABLE IF NOT EXISTS events\n(\n  project_id UInt32,\n  time DateTime64(3)\n)\n' +
        'ENGINE = ReplacingMergeTree(time)\nPARTITION BY toYYYYMM(time)\nORDER BY (project_id, time)\nSETTINGS index_granularity = 8192',
    ]);
  });

  it('writes replicated local tables behind a Distributed table on a cluster', () => {
    const [local, distributed] = new ClickHouseDdl('analytics').createTable(table);
    expect(local).toContain('CREATE TABLE IF NOT EXISTS events_local ON CLUSTER analytics');
    expect(local).toContain(
      "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', time)",
    );
    expect(distributed).toBe(
      'CREATE TABLE IF NOT EXISTS events ON CLUSTER analytics AS events_local\n' +
        'ENGINE = Distributed(analytics, currentDatabase(), events_local, cityHash64(project_id))',
    );
  });

  it('routes ALTERs to the storage table on every node', () => {
    expect(new ClickHouseDdl('c1').alterTable('events', 'ADD COLUMN x UInt8')).toBe(
      'ALTER TABLE events_local ON CLUSTER c1 ADD COLUMN x UInt8',
    );
    expect(new ClickHouseDdl().alterTable('events', 'ADD COLUMN x UInt8')).toBe(
      'ALTER TABLE events ADD COLUMN x UInt8',
    );
  });

  it('routes deletes to the storage table on every node', () => {
    expect(new ClickHouseDdl('c1').deleteRows('events', 'project_id = 1')).toBe(
      'DELETE FROM events_local ON CLUSTER c1 WHERE project_id = 1',
    );
    expect(new ClickHouseDdl().deleteRows('events', 'project_id = 1')).toBe('DELETE FROM events WHERE project_id = 1');
  });

  it('refuses names that are not plain identifiers', () => {
    expect(() => new ClickHouseDdl('a; DROP')).toThrow('Not a safe ClickHouse identifier');
    expect(() => new ClickHouseDdl().createTable({ ...table, name: 'x y' })).toThrow(
      'Not a safe ClickHouse identifier',
    );
  });
});
