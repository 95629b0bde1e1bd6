import { describeFailure } from '../api/http';
import { ErrorNote, Loading, PageTitle, useLoad } from '../components';
import { BoardGrid, Tile, TileContent, tileName, tileResult } from './board-tile';

/** The console's page of a shared board: `/shared?board=<token>`, opened without an account. */
export const SHARED_BOARD_PAGE = '/shared';

export const sharedBoardLink = (token: string) =>
  `${window.location.origin}${SHARED_BOARD_PAGE}?board=${encodeURIComponent(token)}`;

type SharedTile = Tile & ({ result: unknown } | { error: string });
interface SharedBoard {
  name: string;
  description: string;
  date_range: { last_days: number } | { from_date: string; to_date: string };
  where: string;
  tiles: SharedTile[];
}

/**
 * A board shared through a link, read-only: the public `GET /api/shared/boards/{token}` computes every
 * tile on the server, so the page sends no credentials (even in a tab signed in to the console) and
 * makes no other call. The link's signed token is all the access it has.
 */
async function readShared(token: string): Promise<SharedBoard> {
  let response: Response;
  try {
    response = await fetch(`/api/shared/boards/${encodeURIComponent(token)}`, { credentials: 'omit' });
  } catch (error) {
    throw describeFailure(0, `The server could not be reached: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => undefined)) as { results?: SharedBoard } | undefined;
  if (!response.ok || !body?.results)
    throw describeFailure(response.status, body, Number(response.headers.get('Retry-After')) || undefined);
  return body.results;
}

export function SharedBoardPage() {
  const token = new URL(window.location.href).searchParams.get('board') ?? '';
  const board = useLoad(async () => (token ? readShared(token) : undefined), [token]);
  return (
    <>
      <header className="top">
        <strong className="brand">Analytics</strong>
        <span className="muted">Shared board, read-only</span>
      </header>
      <main id="main" tabIndex={-1}>
        {!token ? (
          <>
            <PageTitle>Shared board</PageTitle>
            <p>This page shows a board shared through a link: open the link you were given.</p>
          </>
        ) : board.error ? (
          <>
            <PageTitle>Shared board</PageTitle>
            <ErrorNote error={board.error} />
            <p>Ask whoever shared it for a new link: links expire, and can be revoked.</p>
          </>
        ) : !board.value ? (
          <Loading what="the board" />
        ) : (
          <SharedBoardView board={board.value} />
        )}
      </main>
    </>
  );
}

function SharedBoardView({ board }: { board: SharedBoard }) {
  const range = board.date_range;
  const days = 'last_days' in range ? `The last ${range.last_days} days` : `${range.from_date} to ${range.to_date}`;
  return (
    <>
      <PageTitle>{board.name}</PageTitle>
      <p>
        {board.description} <span className="muted">{days}</span>
        {board.where ? <code> where {board.where}</code> : null}
      </p>
      <BoardGrid
        tiles={board.tiles}
        render={(tile) => {
          const shared = tile as SharedTile;
          if ('error' in shared)
            return (
              <TileContent name={tileName(tile)} error={new Error(`This report could not be shown: ${shared.error}`)} />
            );
          return <TileContent name={tileName(tile)} result={tileResult(tile.kind, shared.result)} />;
        }}
      />
    </>
  );
}
