import { FormEvent, useState } from 'react';
import { annotationsControllerCreate } from '../api/generated';
import { results } from '../api/http';
import { ErrorNote, Field } from '../components';
import { utcDay } from '../project';

/** Adds an annotation (a dated note drawn on every chart of the project); analysts and above. */
export function AnnotationForm({ projectId, onAdded }: { projectId: number; onAdded(): void }) {
  const [error, setError] = useState<unknown>();
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const date = String(fields.get('annotation_date') ?? '');
    const description = String(fields.get('annotation_description') ?? '').trim();
    setError(undefined);
    if (!description) return setError(new Error('Describe the annotation, e.g. Launched the new pricing page.'));
    try {
      await results(
        annotationsControllerCreate({ path: { projectId }, body: { date: `${date} 00:00:00`, description } as never }),
      );
      form.reset();
      onAdded();
    } catch (failure) {
      setError(failure);
    }
  }
  return (
    <form className="filters" onSubmit={add} aria-label="Add an annotation">
      <Field label="Annotation date">
        <input name="annotation_date" type="date" defaultValue={utcDay(new Date())} required />
      </Field>
      <Field label="Annotation">
        <input name="annotation_description" />
      </Field>
      <button type="submit">Add annotation</button>
      <ErrorNote error={error} />
    </form>
  );
}
