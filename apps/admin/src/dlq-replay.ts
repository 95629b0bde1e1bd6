// First: on an unsupported Node, one line and exit 1 before anything else loads.
import '@analytics/supported-node';
import 'reflect-metadata';
import { RandomIds, SystemClock } from '@analytics/clock';
import { loadConfig } from '@analytics/config';
import { DeletionScreen, ErasedIdsRepository } from '@analytics/erasures';
import {
  ConsumedTopicKey,
  createKafka,
  DEAD_LETTER_TOPICS,
  replayDeadLetters,
  ReplayOptions,
  ReplayReport,
} from '@analytics/kafka';
import { Postgres } from '@analytics/postgres';

const TOPICS = Object.keys(DEAD_LETTER_TOPICS) as ConsumedTopicKey[];

const HELP = `Put dead letters back on the topic they came from, once the fix that lets them be written is deployed.

  npm run dlq:replay -- (--from-offset N | --since ISO-8601) [--topic ${TOPICS.join('|')}] [--dry-run]

Reads each dead-letter topic from the offset or time given up to its end as of now, and republishes
its messages (value, key and original headers) to the topic they were consumed from. --dry-run lists
them with the reason each was dead-lettered and sends nothing. Each run prints the offset the next
run starts from: replaying a range twice sends it twice (events collapse by their dedup key; a
profile $add would count twice). Broker and prefix: KAFKA_BROKERS, KAFKA_TOPIC_PREFIX.

GDPR/CCPA deletions reach dead letters here: a letter's events, profile update or identity link of
an id a deletion erased is not sent (listed as dropped), and events go back with processed_at set
to the replay's time; a batch waits for deletions of its projects that have not started yet. The
deletion records are read from DATABASE_URL, the platform's database.
`;

function parse(argv: string[]): { options: Omit<ReplayOptions, 'topic'>; topics: ConsumedTopicKey[] } | undefined {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument ${argv[i]}`);
    flags.set(argv[i].slice(2), argv[i] === '--dry-run' || argv[i] === '--help' ? 'true' : (argv[++i] ?? ''));
  }
  if (flags.has('help')) return undefined;
  const topic = flags.get('topic');
  if (topic !== undefined && !TOPICS.includes(topic as ConsumedTopicKey))
    throw new Error(`--topic must be one of ${TOPICS.join(', ')}`);
  const offset = flags.get('from-offset');
  const since = flags.get('since');
  if ((offset === undefined) === (since === undefined))
    throw new Error('give exactly one of --from-offset and --since');
  if (offset !== undefined && !/^\d+$/.test(offset)) throw new Error('--from-offset must be a whole number');
  const time = since === undefined ? undefined : new Date(since);
  if (time && Number.isNaN(time.getTime())) throw new Error('--since must be an ISO-8601 time');
  return {
    options: { from: time ? { time } : { offset: offset! }, dryRun: flags.has('dry-run') },
    topics: topic ? [topic as ConsumedTopicKey] : TOPICS,
  };
}

function show({ deadLetterTopic, topic, letters, next }: ReplayReport, dryRun: boolean): string {
  const lines = letters.map(({ partition, offset, source, code, reason, dropped, sent }) => {
    const from = source ? `${source.topic}[${source.partition}]@${source.offset}` : '?';
    const left = dropped ? `  [${sent ? `${dropped.rows} row(s)` : 'whole letter'} dropped: ${dropped.reason}]` : '';
    return `${deadLetterTopic}[${partition}]@${offset}  from ${from}  ${code ?? '-'}  ${reason.replace(/\s+/g, ' ')}${left}`;
  });
  const counts = new Map<string, number>();
  letters.forEach(({ code, reason }) =>
    counts.set(code ?? reason.slice(0, 80), (counts.get(code ?? reason.slice(0, 80)) ?? 0) + 1),
  );
  const verb = dryRun ? 'would replay' : 'replayed';
  const droppedRows = letters.reduce((sum, { dropped }) => sum + (dropped?.rows ?? 0), 0);
  const erased = droppedRows ? `; ${droppedRows} row(s) left out (a deletion erased their ids)` : '';
  return [
    ...lines,
    `${deadLetterTopic}: ${verb} ${letters.filter(({ sent }) => sent).length} dead letter(s) to ${topic}${[...counts].map(([why, n]) => `; ${n} × ${why}`).join('')}${erased}`,
    ...(dryRun
      ? []
      : next.map(({ partition, offset }) => `${deadLetterTopic}[${partition}]: next run --from-offset ${offset}`)),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if (!parsed) {
    process.stdout.write(HELP);
    return 0;
  }
  const config = loadConfig(process.env);
  const settings = config.kafka;
  if (!settings) throw new Error('set KAFKA_BROKERS: dead letters live in Kafka');
  const kafka = createKafka(settings);
  const postgres = await Postgres.connect(config.databaseUrl);
  try {
    // A command, not a Nest app: it builds the clock and id source the platform would inject.
    const { screen } = new DeletionScreen(new ErasedIdsRepository(postgres), new SystemClock());
    const ids = new RandomIds();
    for (const topic of parsed.topics) {
      process.stdout.write(
        `${show(await replayDeadLetters(kafka, settings, { ...parsed.options, topic, screen }, ids), parsed.options.dryRun)}\n`,
      );
    }
  } finally {
    await postgres.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  },
);
