import { Clock } from '@analytics/clock';
import { checkDownload, signDownload } from '@analytics/object-store';
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { BoardsError, BoardsErrorCode, invalidBoard } from './boards-error';
import { BoardRow } from './boards.schema';

export const BOARD_SHARE_KEY = Symbol('BoardShareKey');
const DAY_MS = 86_400_000;
const TOKEN = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** What a link signs: the board, its project and its current nonce, so rotating the nonce revokes every earlier link. */
const signedKey = (board: Pick<BoardRow, 'id' | 'projectId'>, nonce: string) =>
  `board:${board.projectId}:${board.id}:${nonce}`;

/**
 * Read-only share links of boards: `<board id>.<expires>.<signature>`, signed as download links are
 * (HMAC-SHA256, constant-time check), with a key derived from the installation's secret for this
 * purpose only, so a board token never verifies as a download link or the reverse.
 */
@Injectable()
export class BoardShareLinks {
  constructor(
    @Inject(BOARD_SHARE_KEY) private readonly key: string,
    private readonly clock: Clock,
  ) {}

  newNonce(): string {
    return randomBytes(16).toString('base64url');
  }

  token(board: Pick<BoardRow, 'id' | 'projectId'>, nonce: string, days: number): { token: string; expiresAt: Date } {
    const expires = Math.floor((this.clock.now() + days * DAY_MS) / 1000);
    return {
      token: `${board.id}.${expires}.${signDownload(this.key, signedKey(board, nonce), expires)}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /**
   * The board id a token names, before its row is read. Text that is not a token at all is a 400 (a
   * mistyped or cut link); a well-formed token that fails its checks is a 404, whatever the reason.
   */
  boardIdOf(token: string): number {
    const match = TOKEN.exec(token);
    if (!match) throw invalidBoard('this is not a board share link: it was cut short or mistyped');
    if (Number(match[1]) < 1 || Number(match[1]) > 2 ** 31 - 1) throw notFound();
    return Number(match[1]);
  }

  /** Throws unless the token was made here for this board's current share and has not expired. */
  verify(token: string, board: BoardRow | undefined): asserts board is BoardRow & { shareNonce: string } {
    const [, , expires, signature] = TOKEN.exec(token) ?? [];
    if (!board?.shareNonce) throw notFound();
    const check = checkDownload(this.key, signedKey(board, board.shareNonce), expires, signature, this.clock.now());
    if (check === 'invalid') throw notFound();
    if (check === 'expired') throw new BoardsError(BoardsErrorCode.LinkExpired, 'this share link has expired');
  }
}

const notFound = () =>
  new BoardsError(BoardsErrorCode.LinkNotFound, 'no shared board at this link: it was revoked or never made');
