import { readApi } from './api/http';
import { useLoad } from './components';

/** The project's event names, most common of the last 31 days first: what the pickers offer. */
export function useEventNames(projectId: number): string[] {
  const names = useLoad(
    () => readApi<string[]>('/api/query/events/names', { project_id: projectId, limit: 50 }),
    [projectId],
  );
  return names.value ?? [];
}

/** Event names from the project's own data as buttons: a click adds one to the field (no typing names from memory). */
export function EventPicker({ names, onPick }: { names: string[]; onPick(name: string): void }) {
  if (!names.length) return null;
  return (
    <div className="picker" role="group" aria-label="Events in this project">
      {names.slice(0, 20).map((name) => (
        <button type="button" key={name} className="chip" onClick={() => onPick(name)}>
          + {name}
        </button>
      ))}
    </div>
  );
}

/** Property names of `event` from the project's data, offered by every input that names `list={id}`. */
export function PropertyOptions({ id, projectId, event }: { id: string; projectId: number; event?: string }) {
  const top = useLoad(
    async () =>
      event
        ? Object.keys(
            await readApi<Record<string, unknown>>('/api/query/events/properties/top', {
              project_id: projectId,
              event,
              limit: 50,
            }),
          )
        : [],
    [projectId, event],
  );
  return (
    <datalist id={id}>
      {(top.value ?? []).map((name) => (
        <option key={name} value={name} />
      ))}
    </datalist>
  );
}

/** Comma-separated `text` with `name` added, unless it is there already. */
export function withName(text: string, name: string): string {
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.includes(name) ? text : [...names, name].join(', ');
}
