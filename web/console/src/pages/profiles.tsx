import { FormEvent } from 'react';
import { readApi } from '../api/http';
import { ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { daysAgo, useConsole } from '../project';
import { Link, navigate, useLocation } from '../router';
import { PropertyTable } from './events';

interface Profile {
  $distinct_id: string;
  $properties: Record<string, unknown>;
}
interface ProfilePage {
  total: number;
  results: Profile[];
}
interface ExportedEvent {
  event: string;
  properties: Record<string, unknown> & { time: number };
}

/** Profiles: search (a `where` expression over profiles, or a distinct id), and one profile with its properties and latest events. */
export function ProfilesPage() {
  const { project, empty } = useConsole();
  const location = useLocation();
  const id = location.searchParams.get('id') ?? '';
  const where = location.searchParams.get('where') ?? '';

  const search = useLoad(
    () =>
      readApi<ProfilePage>('/api/query/engage', { project_id: project.id, where: where || undefined, page_size: 50 }),
    [project.id, where],
  );
  const profile = useLoad(async () => {
    if (!id) return undefined;
    const page = await readApi<ProfilePage>('/api/query/engage', { project_id: project.id, distinct_id: id });
    const text = await readApi<string>(
      '/api/2.0/export',
      {
        project_id: project.id,
        from_date: daysAgo(30),
        to_date: daysAgo(0),
        where: `properties["distinct_id"] == ${JSON.stringify(id)}`,
        limit: 500,
      },
      'text',
    );
    const events = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as ExportedEvent)
      .sort((a, b) => b.properties.time - a.properties.time)
      .slice(0, 20);
    return { profile: page.results[0], events };
  }, [project.id, id]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = String(form.get('where') ?? '').trim();
    navigate(text ? `/profiles?where=${encodeURIComponent(text)}` : '/profiles');
  }

  return (
    <>
      <PageTitle>Profiles</PageTitle>
      {empty ? <FirstStep /> : null}
      <form className="filters" onSubmit={submit} aria-label="Search profiles">
        <Field label="Where" hint='e.g. properties["$email"] == "ann@example.com"'>
          <input name="where" defaultValue={where} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={search.error ?? profile.error} />
      <div className="split">
        <section aria-labelledby="profiles-found">
          <h2 id="profiles-found">Profiles ({search.value?.total ?? '…'})</h2>
          <ul>
            {(search.value?.results ?? []).map((p) => (
              <li key={p.$distinct_id}>
                <Link
                  href={`/profiles?id=${encodeURIComponent(p.$distinct_id)}${where ? `&where=${encodeURIComponent(where)}` : ''}`}
                >
                  {String(p.$properties.$name ?? p.$properties.$email ?? p.$distinct_id)}
                </Link>
              </li>
            ))}
          </ul>
          {search.value && !search.value.results.length ? <p className="muted">No profile matches.</p> : null}
        </section>
        {id ? (
          <section className="detail" aria-labelledby="profile-title">
            <h2 id="profile-title">{id}</h2>
            {profile.value?.profile ? (
              <PropertyTable properties={profile.value.profile.$properties} />
            ) : (
              <p className="muted">No profile properties for this id.</p>
            )}
            <h3>Latest events (30 days)</h3>
            <ul>
              {(profile.value?.events ?? []).map((e, i) => (
                <li key={i}>
                  {new Date(e.properties.time * 1000).toISOString().replace('T', ' ').slice(0, 19)} — {e.event}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </>
  );
}
