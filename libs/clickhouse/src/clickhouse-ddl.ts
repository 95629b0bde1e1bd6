const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Not a safe ClickHouse identifier: ${name}`);
  return name;
}

export interface TableDefinition {
  name: string;
  columns: string[];
  /** A MergeTree-family engine without its `Replicated` prefix, e.g. `ReplacingMergeTree(version)`. */
  engine: string;
  orderBy: string;
  partitionBy?: string;
  /** Keeps the rows a Distributed table routes to one shard together (e.g. one user's events). */
  shardingKey?: string;
  settings?: Record<string, string | number>;
}

/**
 * Writes DDL for one server or, with a cluster name, for a replicated cluster:
 * `ON CLUSTER`, `Replicated*MergeTree` local tables and a `Distributed` table under the public name,
 * so the rest of the code reads and writes the same table names either way.
 */
/** Settings for `deleteRows`: the delete returns once every replica applied it. */
export const DELETE_ON_EVERY_REPLICA_SETTINGS = { lightweight_deletes_sync: '2' } as const;

export class ClickHouseDdl {
  constructor(readonly cluster?: string) {
    if (cluster) identifier(cluster);
  }

  get onCluster(): string {
    return this.cluster ? ` ON CLUSTER ${this.cluster}` : '';
  }

  /** The table that physically stores rows (the public one, or its `_local` twin on a cluster). */
  storageTable(name: string): string {
    return this.cluster ? `${identifier(name)}_local` : identifier(name);
  }

  engine(engine: string): string {
    const match = /^(\w*MergeTree)\s*(?:\((.*)\))?$/s.exec(engine.trim());
    if (!match) throw new Error(`Not a MergeTree-family engine: ${engine}`);
    if (!this.cluster) return `${match[1]}(${match[2] ?? ''})`;
    const args = ["'/clickhouse/tables/{shard}/{database}/{table}'", "'{replica}'", match[2]].filter(Boolean);
    return `Replicated${match[1]}(${args.join(', ')})`;
  }

  createTable(table: TableDefinition): string[] {
    const storage = this.storageTable(table.name);
    const settings = Object.entries(table.settings ?? {}).map(([k, v]) => `${identifier(k)} = ${v}`);
    const create = [
      `CREATE TABLE IF NOT EXISTS ${storage}${this.onCluster}`,
      `(\n  ${table.columns.join(',\n  ')}\n)`,
      `ENGINE = ${this.engine(table.engine)}`,
      table.partitionBy ? `PARTITION BY ${table.partitionBy}` : '',
      `ORDER BY ${table.orderBy}`,
      settings.length ? `SETTINGS ${settings.join(', ')}` : '',
    ].filter(Boolean);
    const statements = [create.join('\n')];
    if (this.cluster) {
      statements.push(
        `CREATE TABLE IF NOT EXISTS ${identifier(table.name)}${this.onCluster} AS ${storage}\n` +
          `ENGINE = Distributed(${this.cluster}, currentDatabase(), ${storage}, ${table.shardingKey ?? 'rand()'})`,
      );
    }
    return statements;
  }

  /**
   * A lightweight delete of the rows matching `where`, on every node. Run it with
   * `DELETE_ON_EVERY_REPLICA_SETTINGS` so that a count right after it sees the rows gone.
   */
  deleteRows(name: string, where: string): string {
    return `DELETE FROM ${this.storageTable(name)}${this.onCluster} WHERE ${where}`;
  }

  /** Statements changing the stored table go to the storage table, on every node. */
  alterTable(name: string, change: string): string {
    return `ALTER TABLE ${this.storageTable(name)}${this.onCluster} ${change}`;
  }
}

/** A time as a `DateTime64(3, 'UTC')` parameter takes it: `2026-01-02 03:04:05.678`. */
export const clickhouseDateTime = (date: Date): string => date.toISOString().replace('T', ' ').replace('Z', '');
