import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BACKUP_URL = 'http://minio:9000/analytics-backups/clickhouse';

export interface ScriptRun extends SpawnSyncReturns<string> {
  /** Each clickhouse-client call's arguments. */
  invocations: string[][];
  /** Each call's query (its last argument). */
  queries: string[];
}

/**
 * The ClickHouse backup script in a sandbox, run with `sh` against a stub clickhouse-client that
 * records its arguments, answers the search for the week's full backup with $STUB_FULL and exits
 * from a BACKUP with $STUB_BACKUP_STATUS.
 */
export class BackupScriptSandbox {
  private readonly dir = mkdtempSync(join(tmpdir(), 'clickhouse-backup-'));
  private readonly script = join(this.dir, 'clickhouse-backup.sh');
  private readonly calls = join(this.dir, 'calls');

  constructor(scriptText: string) {
    mkdirSync(join(this.dir, 'bin'));
    writeFileSync(this.script, scriptText);
    const stub = [
      '#!/bin/sh',
      'printf "%s\\n" "$@" "--" >> "$CALLS"',
      'for last in "$@"; do :; done',
      'case "$last" in SELECT*) echo "$STUB_FULL" ;; BACKUP*) exit "${STUB_BACKUP_STATUS:-0}" ;; esac',
    ];
    writeFileSync(join(this.dir, 'bin/clickhouse-client'), stub.join('\n'));
    chmodSync(join(this.dir, 'bin/clickhouse-client'), 0o755);
  }

  run(env: Record<string, string>): ScriptRun {
    rmSync(this.calls, { force: true });
    const result = spawnSync('sh', [this.script], {
      encoding: 'utf8',
      env: {
        PATH: `${join(this.dir, 'bin')}:${process.env.PATH}`,
        CALLS: this.calls,
        CLICKHOUSE_HOST: 'clickhouse-analytics',
        CLICKHOUSE_USER: 'analytics',
        CLICKHOUSE_PASSWORD: 'pw',
        CLICKHOUSE_CLUSTER: 'analytics',
        CLICKHOUSE_BACKUP_URL: BACKUP_URL,
        STUB_FULL: '',
        ...env,
      },
    });
    const recorded = existsSync(this.calls) ? readFileSync(this.calls, 'utf8') : '';
    const invocations = recorded
      .split('--\n')
      .filter(Boolean)
      .map((call) => call.trimEnd().split('\n'));
    return { ...result, invocations, queries: invocations.map((args) => args[args.length - 1]) };
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
