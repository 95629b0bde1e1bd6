import { useEffect, useState } from 'react';
import { schemasControllerList, schemasControllerSeen, schemasControllerUploadOne } from '../api/generated';
import { results } from '../api/http';
import { ErrorNote, FirstStep, PageTitle, useLoad } from '../components';
import { useConsole } from '../project';

interface Metadata {
  hidden?: boolean;
  dropped?: boolean;
  displayName?: string;
}
interface SchemaJson {
  description?: string;
  properties?: Record<string, { type: string; description?: string }>;
  metadata?: Record<string, Metadata>;
}
interface Schema {
  entityType: 'event' | 'profile';
  name: string;
  schemaJson: SchemaJson;
}

const metadataOf = (schema?: SchemaJson): Metadata =>
  schema?.metadata ? (Object.values(schema.metadata)[0] ?? {}) : {};

/** The data dictionary: events (described or only seen) with descriptions and their hidden and dropped switches. */
export function DictionaryPage() {
  const { project, empty, account } = useConsole();
  const [tick, setTick] = useState(0);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string>();
  const described = useLoad(
    () => results<Schema[]>(schemasControllerList({ path: { projectId: project.id } })),
    [project.id, tick],
  );
  // A switch shows its new state at once; the saved state replaces it when the list reloads.
  const [pending, setPending] = useState<Record<string, boolean>>({});
  useEffect(() => setPending({}), [described.value]);
  const seen = useLoad(
    () => results<unknown>(schemasControllerSeen({ path: { projectId: project.id } })),
    [project.id],
  );

  const seenEvents = seenEventNames(seen.value);
  const seenProperties = new Map(seenEvents.map((e) => [e, seenPropertyNames(seen.value, e)]));
  const events = new Map<string, Schema | undefined>();
  for (const name of seenEvents) events.set(name, undefined);
  for (const s of described.value ?? []) if (s.entityType === 'event') events.set(s.name, s);
  const canWrite = account.role === 'owner' || account.role === 'admin';

  async function toggle(name: string, key: 'hidden' | 'dropped', value: boolean) {
    const current = events.get(name)?.schemaJson ?? {};
    const namespace = current.metadata ? Object.keys(current.metadata)[0] : 'com.vendor';
    setBusy(`${name}:${key}`);
    setPending((p) => ({ ...p, [`${name}:${key}`]: value }));
    setError(undefined);
    try {
      const body = { ...current, metadata: { [namespace]: { ...metadataOf(current), [key]: value } } };
      await results(
        schemasControllerUploadOne({ path: { projectId: project.id, entityType: 'event', name }, body: body as never }),
      );
      setTick((n) => n + 1);
    } catch (failure) {
      setError(failure);
      setPending((p) => Object.fromEntries(Object.entries(p).filter(([k]) => k !== `${name}:${key}`)));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <>
      <PageTitle>Dictionary</PageTitle>
      {empty && !events.size ? <FirstStep /> : null}
      <ErrorNote error={error ?? described.error ?? seen.error} />
      {!canWrite ? <p className="muted">Changing the dictionary needs the admin role.</p> : null}
      <table aria-label="Events in the dictionary">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Description</th>
            <th scope="col">Properties</th>
            <th scope="col">Hidden</th>
            <th scope="col">Dropped at ingestion</th>
          </tr>
        </thead>
        <tbody>
          {[...events.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([name, schema]) => {
              const meta = metadataOf(schema?.schemaJson);
              return (
                <tr key={name}>
                  <td>{name}</td>
                  <td>{schema?.schemaJson.description ?? <span className="muted">not described</span>}</td>
                  <td>
                    {[
                      ...new Set([
                        ...(seenProperties.get(name) ?? []),
                        ...Object.keys(schema?.schemaJson.properties ?? {}),
                      ]),
                    ]
                      .map((p) =>
                        schema?.schemaJson.properties?.[p]?.description
                          ? `${p} (${schema.schemaJson.properties[p].description})`
                          : p,
                      )
                      .join(', ')}
                  </td>
                  {(['hidden', 'dropped'] as const).map((key) => (
                    <td key={key}>
                      <input
                        type="checkbox"
                        aria-label={`${key === 'hidden' ? 'Hide' : 'Drop'} ${name}`}
                        checked={pending[`${name}:${key}`] ?? Boolean(meta[key])}
                        disabled={!canWrite || busy !== undefined}
                        onChange={(e) => void toggle(name, key, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
        </tbody>
      </table>
      {described.value && !events.size ? <p className="muted">No event seen or described yet.</p> : null}
    </>
  );
}

/** Event names out of `schemas/seen`, whatever nesting it uses (`events: [{name}]` or a map by name). */
function seenEventNames(value: unknown): string[] {
  const events = (value as { events?: unknown } | undefined)?.events;
  if (Array.isArray(events))
    return events
      .map((e) => (typeof e === 'string' ? e : String((e as { name?: unknown }).name ?? '')))
      .filter(Boolean);
  if (events && typeof events === 'object') return Object.keys(events);
  return [];
}

function seenPropertyNames(value: unknown, event: string): string[] {
  const events = (value as { events?: unknown } | undefined)?.events;
  if (!Array.isArray(events)) return [];
  const entry = events.find((e) => (e as { name?: unknown }).name === event) as
    { properties?: { name: string }[] } | undefined;
  return (entry?.properties ?? []).map((p) => p.name);
}
