import { ClickHouseError, parseError } from '@clickhouse/client';
import { classifyInsertFailure } from './insert-failure';

/** Errors as chDB 26 raised them through @clickhouse/client (code, type and message copied from real runs). */
const fromChdb = {
  memory: new ClickHouseError({
    code: '241',
    type: 'MEMORY_LIMIT_EXCEEDED',
    message:
      'Query memory limit exceeded: would use 1.10 MiB (attempt to allocate chunk of 0.00 B), maximum: 976.56 KiB. Untracked memory across all threads: 1.13 MiB: While executing AggregatingTransform. ',
  }),
  tooManyParts: new ClickHouseError({
    code: '252',
    type: 'TOO_MANY_PARTS',
    message:
      "Too many parts (1 with average size of 303.00 B) in table 'default.p (51fd8c4c-7546-4460-a461-7ee85bd3c085)'. Merges are processing significantly slower than inserts. ",
  }),
  timeout: new ClickHouseError({
    code: '159',
    type: 'TIMEOUT_EXCEEDED',
    message: 'Timeout exceeded: elapsed 1009.624 ms, maximum: 1000 ms. ',
  }),
  unknownTable: new ClickHouseError({
    code: '60',
    type: 'UNKNOWN_TABLE',
    message: 'Table default.nope does not exist. Maybe you meant system.one?. ',
  }),
  loneSurrogate: new ClickHouseError({
    code: '25',
    type: 'CANNOT_PARSE_ESCAPE_SEQUENCE',
    message:
      'Cannot parse escape sequence: missing second part of surrogate pair. In JSON input formats you can disable setting input_format_json_throw_on_bad_escape_sequence to save bad escape sequences as is: (while reading the value of key event): (at row 1)\n: While executing ParallelParsingBlockInputFormat: data for INSERT was parsed from query. ',
  }),
  wrongType: new ClickHouseError({
    code: '27',
    type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
    message:
      'Cannot parse input: expected \'"\' before: \'not a number","event":1}\\n\': (while reading the value of key project_id): (at row 1)\n: While executing ParallelParsingBlockInputFormat: data for INSERT was parsed from query. ',
  }),
  tooManyPartitions: new ClickHouseError({
    code: '252',
    type: 'TOO_MANY_PARTS',
    message:
      "Too many partitions for single INSERT block (more than 100). The limit is controlled by 'max_partitions_per_insert_block' setting. Large number of partitions is a common misconception. It will lead to severe negative performance impact, including slow server startup, slow INSERT queries and slow SELECT queries. Recommended total number of partitions for a table is under 1000..10000. Please note, that partitioning is not intended to speed up SELECT queries (ORDER BY key is sufficient to make range queries fast). Partitions are intended for data manipulation (DROP PARTITION, etc). ",
  }),
  /** chDB after its session closed: no ClickHouse code at all. */
  closed: new Error('ChdbConnection is closed'),
};

describe('classifyInsertFailure', () => {
  it('retries what passes: memory (241, once wrongly blamed on the data), too many parts, timeouts, a missing table', () => {
    for (const error of [fromChdb.memory, fromChdb.tooManyParts, fromChdb.timeout, fromChdb.unknownTable])
      expect(classifyInsertFailure(error)).toBe('retry');
  });

  it('retries failures that never reached ClickHouse: connection refused or reset, client timeouts, a closed chDB session', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), {
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
    });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    for (const error of [refused, reset, new Error('Timeout error.'), fromChdb.closed])
      expect(classifyInsertFailure(error)).toBe('retry');
  });

  it('splits the batch for anything else ClickHouse answers: the data may be at fault', () => {
    expect(classifyInsertFailure(fromChdb.loneSurrogate)).toBe('dead-letter');
    expect(classifyInsertFailure(fromChdb.wrongType)).toBe('dead-letter');
    // The same code as too many parts, but bound to the data: a block spanning over 100 months.
    expect(classifyInsertFailure(fromChdb.tooManyPartitions)).toBe('dead-letter');
  });

  it("reads the code of a ClickHouse server error, of chDB's own errors, and through causes", () => {
    const server = parseError(
      'Code: 241. DB::Exception: Memory limit (total) exceeded: would use 3.63 GiB (attempt to allocate chunk of 4194304 bytes), maximum: 3.60 GiB. (MEMORY_LIMIT_EXCEEDED) (version 24.8.4.13 (official build))',
    );
    expect(server).toMatchObject({ code: '241', type: 'MEMORY_LIMIT_EXCEEDED' });
    expect(classifyInsertFailure(server)).toBe('retry');
    expect(
      classifyInsertFailure(
        parseError(
          "Code: 27. DB::Exception: Cannot parse input: expected '\"' before: 'x': (at row 1). (CANNOT_PARSE_INPUT_ASSERTION_FAILED)",
        ),
      ),
    ).toBe('dead-letter');
    expect(
      classifyInsertFailure(Object.assign(new Error('query failed'), { code: 'CHDB_QUERY', clickhouseCode: 241 })),
    ).toBe('retry');
    expect(
      classifyInsertFailure(Object.assign(new Error('query failed'), { code: 'CHDB_QUERY', clickhouseCode: 25 })),
    ).toBe('dead-letter');
    expect(classifyInsertFailure(new Error('insert failed', { cause: fromChdb.tooManyParts }))).toBe('retry');
  });
});
