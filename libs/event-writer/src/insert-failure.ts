import { clickHouseErrorCode } from '@analytics/clickhouse';
import { FailureOutcome } from '@analytics/kafka';

/**
 * ClickHouse errors that pass: the server is busy, short of memory or disk, unreachable, or not set
 * up as expected (a missing table or a revoked grant is the operator's to fix, never a message's
 * fault, and dead-lettering every message meanwhile would empty the topic into the DLQ). The same
 * insert succeeds later, so it is retried with backoff.
 */
export const TRANSIENT_CLICKHOUSE_ERRORS = new Map<number, string>([
  [23, 'CANNOT_READ_FROM_ISTREAM'],
  [24, 'CANNOT_WRITE_TO_OSTREAM'],
  [60, 'UNKNOWN_TABLE'],
  [81, 'UNKNOWN_DATABASE'],
  [159, 'TIMEOUT_EXCEEDED'],
  [164, 'READONLY'],
  [173, 'CANNOT_ALLOCATE_MEMORY'],
  [198, 'DNS_ERROR'],
  [201, 'QUOTA_EXCEEDED'],
  [202, 'TOO_MANY_SIMULTANEOUS_QUERIES'],
  [203, 'NO_FREE_CONNECTION'],
  [209, 'SOCKET_TIMEOUT'],
  [210, 'NETWORK_ERROR'],
  [225, 'NO_ZOOKEEPER'],
  [236, 'ABORTED'],
  [241, 'MEMORY_LIMIT_EXCEEDED'],
  [242, 'TABLE_IS_READ_ONLY'],
  [243, 'NOT_ENOUGH_SPACE'],
  [252, 'TOO_MANY_PARTS'],
  [279, 'ALL_CONNECTION_TRIES_FAILED'],
  [285, 'TOO_FEW_LIVE_REPLICAS'],
  [319, 'UNKNOWN_STATUS_OF_INSERT'],
  [373, 'SESSION_IS_LOCKED'],
  [394, 'QUERY_WAS_CANCELLED'],
  [425, 'SYSTEM_ERROR'],
  [439, 'CANNOT_SCHEDULE_TASK'],
  [497, 'ACCESS_DENIED'],
  [516, 'AUTHENTICATION_FAILED'],
  [999, 'KEEPER_EXCEPTION'],
  [1000, 'POCO_EXCEPTION'],
]);

const TOO_MANY_PARTS = 252;
/** Code 252 also names a block spanning too many partitions (months): the data's shape, not the server's state. */
const DATA_BOUND_PARTS = /too many partitions for single insert block/i;

/**
 * `retry` for a passing failure; `dead-letter` when the data may be at fault, which the writer
 * settles by splitting the batch until the message ClickHouse refuses stands alone. A failure that
 * carries no ClickHouse code never reached the server's parser (connection refused or reset, a
 * client timeout, DNS) and passes too.
 */
export function classifyInsertFailure(error: unknown): FailureOutcome {
  const code = clickHouseErrorCode(error);
  if (code === TOO_MANY_PARTS && DATA_BOUND_PARTS.test((error as Error).message ?? '')) return 'dead-letter';
  return code === undefined || TRANSIENT_CLICKHOUSE_ERRORS.has(code) ? 'retry' : 'dead-letter';
}
