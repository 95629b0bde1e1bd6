import { FormEvent } from 'react';
import { readApi } from '../api/http';
import { ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { useConsole } from '../project';
import { Link, navigate, useLocation } from '../router';
import { PropertyTable } from './events';
import { ProfileActivity } from './profile-activity';

interface Profile {
  $distinct_id: string;
  $properties: Record<string, unknown>;
}
interface ProfilePage {
  total: number;
  results: Profile[];
}

/** Profiles: search (a `where` expression over profiles, or a distinct id), and one profile with its properties and activity feed. */
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
  const profile = useLoad(
    async () =>
      id
        ? (await readApi<ProfilePage>('/api/query/engage', { project_id: project.id, distinct_id: id })).results[0]
        : undefined,
    [project.id, id],
  );

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
            {profile.value ? (
              <PropertyTable properties={profile.value.$properties} />
            ) : (
              <p className="muted">No profile properties for this id.</p>
            )}
            <ProfileActivity key={id} distinctId={id} />
          </section>
        ) : null}
      </div>
    </>
  );
}
