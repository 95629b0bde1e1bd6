import { useState } from 'react';
import { postForm } from '../api/http';
import { ErrorNote, FirstStep, PageTitle, useLoad } from '../components';
import { useConsole } from '../project';
import { Link } from '../router';

interface Cohort {
  id: number;
  name: string;
  description: string;
  count: number;
  created: string;
}
interface Members {
  total: number;
  results: { $distinct_id: string; $properties?: Record<string, unknown> }[];
}

/** Cohorts: the saved cohorts with their sizes, and the members of one (the profile query's `filter_by_cohort`). */
export function CohortsPage() {
  const { project, empty } = useConsole();
  const [open, setOpen] = useState<Cohort>();
  const list = useLoad(() => postForm<Cohort[]>(`/api/query/cohorts/list?project_id=${project.id}`, {}), [project.id]);
  const members = useLoad(
    async () =>
      open
        ? postForm<Members>(`/api/query/engage?project_id=${project.id}`, {
            filter_by_cohort: JSON.stringify({ id: open.id }),
            page_size: 100,
          })
        : undefined,
    [project.id, open],
  );
  return (
    <>
      <PageTitle>Cohorts</PageTitle>
      {empty ? <FirstStep /> : null}
      <ErrorNote error={list.error ?? members.error} />
      <table aria-label="Cohorts">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Users</th>
            <th scope="col">Description</th>
            <th scope="col">Created (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {(list.value ?? []).map((c) => (
            <tr key={c.id}>
              <td>
                <button className="linkish" onClick={() => setOpen(c)} aria-label={`Show the members of ${c.name}`}>
                  {c.name}
                </button>
              </td>
              <td>{c.count}</td>
              <td>{c.description}</td>
              <td>{c.created}</td>
            </tr>
          ))}
          {list.value && !list.value.length ? (
            <tr>
              <td colSpan={4}>
                No cohort yet: cohorts are saved through the API (POST /api/app/projects/{project.id}/cohorts).
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {open ? (
        <section aria-labelledby="members-title">
          <h2 id="members-title">
            Members of {open.name} ({members.value?.total ?? '…'})
          </h2>
          <ul>
            {(members.value?.results ?? []).map((m) => (
              <li key={m.$distinct_id}>
                <Link href={`/profiles?id=${encodeURIComponent(m.$distinct_id)}`}>{m.$distinct_id}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
