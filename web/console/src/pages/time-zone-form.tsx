import { FormEvent, useState } from 'react';
import { projectControllerUpdate } from '../api/generated';
import { results } from '../api/http';
import { ErrorNote, Field } from '../components';
import { useConsole } from '../project';

/** The zones this browser knows, for the picker; the API decides which it accepts (Node's and ClickHouse's). */
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

/**
 * `timezone`: the IANA zone every report's days are cut in (docs/queries.md, "Time zone"); admins
 * and owners may change it. A change re-buckets every report's history, which the form says before saving.
 */
export function TimeZoneForm() {
  const { project } = useConsole();
  const [current, setCurrent] = useState(project.timezone ?? 'UTC');
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const timezone = String(new FormData(event.currentTarget).get('timezone') ?? '').trim();
    setError(undefined);
    setSaved(false);
    try {
      const updated = await results<{ timezone: string }>(
        projectControllerUpdate({ path: { projectId: project.id }, body: { timezone } as never }),
      );
      setCurrent(updated.timezone);
      setSaved(true);
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form className="filters" onSubmit={save} aria-label="Time zone">
      <Field label="Time zone" hint="An IANA name, such as Europe/Berlin. Admins and owners may change it.">
        <input name="timezone" list="time-zones" defaultValue={current} />
      </Field>
      <datalist id="time-zones">
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
      <button type="submit">Save time zone</button>
      <p className="muted" role="status">
        {saved ? 'Saved. ' : ''}
        {`Reports count days, weeks and months in ${current}.`}
      </p>
      {/* Not a `.notice`: that class marks the one-time secret the settings page shows. */}
      <p className="muted">
        Changing the time zone re-buckets all history: every report, saved ones too, counts the same events in the new
        zone&apos;s days from then on, so their numbers per day, week and month change.
      </p>
      <ErrorNote error={error} />
    </form>
  );
}
