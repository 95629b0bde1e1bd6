import { isProjectId } from '@analytics/tenancy';
import { withProcessedAt } from '@analytics/events';
import { ConsumedTopicKey, ScreenedLetter } from '@analytics/kafka';
import { Erasure, ProjectId, projectIdKey } from './erased-ids.repository';

/** An event row of a dead letter (a JSONEachRow line of the events table), and whose it is. */
interface EventLine {
  text: string;
  /** Undefined when the line is not a row that names its project and id (then it goes back as it is). */
  subject?: ProjectId & { processedAtMs?: number };
}

/** What a dead letter holds of people, read once per replay. */
export type LetterContents =
  { topic: 'events'; lines: EventLine[] } | { topic: 'profiles' | 'identities'; subjects: ProjectId[] };

const ERASED = 'a deletion erased the id';

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `processed_at` as the gateway writes it (`seconds.mmm`), or any text DateTime64 reads; undefined when unknown. */
function epochMs(value: unknown): number | undefined {
  if (typeof value === 'number') return value * 1000;
  if (typeof value !== 'string') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const parsed = Date.parse(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(parsed) ? undefined : parsed;
}

const ids = (projectId: unknown, ...distinctIds: unknown[]): ProjectId[] =>
  isProjectId(projectId)
    ? distinctIds.filter((id): id is string => typeof id === 'string').map((distinctId) => ({ projectId, distinctId }))
    : [];

export function readLetter(topic: ConsumedTopicKey, value: Buffer | null): LetterContents {
  const text = value?.toString('utf8') ?? '';
  if (topic === 'events') {
    const lines = text.split('\n').filter((line) => line.length > 0);
    return {
      topic,
      lines: lines.map((line) => {
        const row = parse(line);
        const [subject] = row ? ids(row.project_id, row.distinct_id) : [];
        return { text: `${line}\n`, subject: subject && { ...subject, processedAtMs: epochMs(row!.processed_at) } };
      }),
    };
  }
  const message = parse(text);
  if (!message) return { topic, subjects: [] };
  // Group profiles are keyed by group id, not a person's id: a deletion leaves them (docs/compliance.md).
  if (topic === 'profiles')
    return { topic, subjects: message.groupKey === '' ? ids(message.projectId, message.profileId) : [] };
  return { topic, subjects: ids(message.projectId, message.a, message.b, message.identified) };
}

export const subjectsOf = (contents: LetterContents): ProjectId[] =>
  contents.topic === 'events'
    ? contents.lines.flatMap((line) => (line.subject ? [line.subject] : []))
    : contents.subjects;

/**
 * What goes back of one letter. Events: rows of an erased id acknowledged before its deletion was
 * requested are left out, as the deletion would have removed them; the others get `processed_at`
 * = `stampMs`, the replay's time, so a stored row never claims to predate a deletion it escaped.
 * Profile updates and identity links: left out when an id they name was erased and the letter was
 * dead-lettered before that deletion began deleting (it would have been applied, then erased).
 */
export function screenLetter(
  contents: LetterContents,
  letterTimeMs: number,
  erasures: ReadonlyMap<string, Erasure>,
  stampMs: number,
): ScreenedLetter | undefined {
  if (contents.topic !== 'events') {
    const erased = contents.subjects.some((subject) => {
      const erasure = erasures.get(projectIdKey(subject));
      return erasure !== undefined && !(letterTimeMs >= erasure.startedAt.getTime());
    });
    return erased ? { dropped: { rows: 1, reason: ERASED } } : undefined;
  }
  const kept: string[] = [];
  for (const { text, subject } of contents.lines) {
    const erasure = subject && erasures.get(projectIdKey(subject));
    // An unknown acknowledgement time counts as before: the deletion's side wins.
    if (erasure && !((subject.processedAtMs ?? -Infinity) >= erasure.requestedAt.getTime())) continue;
    kept.push(subject ? (withProcessedAt(text, stampMs) ?? text) : text);
  }
  const dropped = contents.lines.length - kept.length;
  return {
    value: kept.length ? kept.join('') : undefined,
    rows: kept.length,
    ...(dropped ? { dropped: { rows: dropped, reason: ERASED } } : {}),
  };
}
