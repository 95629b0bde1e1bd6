import { userProfilesSql } from '@analytics/profile-store';
import { chCompiled, chParam, chSql, ProjectScope, renderChSql } from '@analytics/tenancy';
import { bucketDaySql, bucketParams } from '../clickhouse/bucket-sql';
import { wallMsSql, zoneParams } from '../clickhouse/wall-time-sql';
import { TimeZone } from '../time/time-zone';
import { BoundQuery } from '../clickhouse/query-runner';
import { DateBuckets } from '../time/buckets';

/**
 * The most user profiles /engage/properties reads: the catalog of a project with millions of
 * profiles costs what 100,000 cost (names and counts come from those), never a full scan.
 */
export const PROPERTY_SCAN_PROFILES = 100_000;

/**
 * A property value's type in the real API's words (string, number, boolean, datetime, list,
 * object): a string that starts as an ISO date and time is a datetime, as the SDKs send `$created`.
 */
const PROPERTY_TYPE = `multiIf(
    JSONType(properties, name) = 'Bool', 'boolean',
    JSONType(properties, name) IN ('Int64', 'UInt64', 'Double'), 'number',
    JSONType(properties, name) = 'Array', 'list',
    JSONType(properties, name) = 'Object', 'object',
    match(JSONExtractString(properties, name), '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][T ][0-9][0-9]:[0-9][0-9]:[0-9][0-9]'), 'datetime',
    'string')`;

/** /engage/properties: user-profile property names by how many profiles carry them, each with its most common type. */
export function profilePropertiesSql(scope: ProjectScope, limit: number): BoundQuery {
  const sql = chSql`SELECT name, count() AS count, topK(1)(type)[1] AS type FROM (
        SELECT name, ${chCompiled(PROPERTY_TYPE)} AS type FROM (
          SELECT properties ${userProfilesSql(scope)} LIMIT ${chParam(PROPERTY_SCAN_PROFILES, 'UInt32')}
        ) ARRAY JOIN JSONExtractKeys(properties) AS name
      ) GROUP BY name ORDER BY count DESC, name ASC LIMIT ${chParam(limit, 'UInt32')}`;
  return renderChSql(sql);
}

/**
 * The `$transactions` the SDKs' track_charge appends (`{"$amount": N, "$time": "<ISO time>"}`),
 * one row each, with the time in epoch milliseconds; entries without a readable time are left out.
 */
const transactionsSql = (scope: ProjectScope) => chSql`SELECT profile_id,
        JSONExtractFloat(tx, '$amount') AS amount,
        toUnixTimestamp64Milli(parseDateTime64BestEffortOrNull(JSONExtractString(tx, '$time'), 3, 'UTC')) AS ms
      FROM (SELECT profile_id, arrayJoin(JSONExtractArrayRaw(properties, '$transactions')) AS tx
        ${userProfilesSql(scope)} AND JSONHas(properties, '$transactions'))`;

/**
 * /engage/revenue: per date bucket of [fromMs, toMs), the amount and the paying profiles; the row
 * with `bucket` NULL is the whole range (its payers counted once however many buckets they paid in).
 */
export function revenueSql(
  scope: ProjectScope,
  buckets: DateBuckets,
  fromDay: number,
  fromMs: number,
  toMs: number,
  zone: TimeZone,
) {
  const inRange = chSql`ms IS NOT NULL AND ms >= ${chParam(fromMs, 'Int64')} AND ms < ${chParam(toMs, 'Int64')}`;
  // Days of the project's time zone, as every report's (docs/queries.md, "Time zone").
  const bucket = chCompiled(bucketDaySql(wallMsSql('ms', zone), buckets), {
    ...bucketParams(buckets, fromDay),
    ...zoneParams(zone),
  });
  const sql = chSql`SELECT toNullable(${bucket}) AS bucket, sum(amount) AS amount, uniqExact(profile_id) AS paid_count
        FROM (${transactionsSql(scope)}) WHERE ${inRange} GROUP BY bucket
      UNION ALL
      SELECT NULL AS bucket, sum(amount) AS amount, uniqExact(profile_id) AS paid_count
        FROM (${transactionsSql(scope)}) WHERE ${inRange}`;
  return renderChSql(sql);
}

/** How many user profiles the project has: the `count` of every revenue row. */
export function userProfileCountSql(scope: ProjectScope): BoundQuery {
  return renderChSql(chSql`SELECT count() AS profiles ${userProfilesSql(scope)}`);
}
