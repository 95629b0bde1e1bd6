import { domainErrorOf } from '@analytics/errors';

/** Why a board request was refused; each code carries its HTTP status. */
export enum BoardsErrorCode {
  Invalid = 'invalid_board',
  NotFound = 'not_found',
  /** A share link that was never made here, was revoked, or names a deleted board. */
  LinkNotFound = 'share_link_not_found',
  LinkExpired = 'share_link_expired',
}

// An expired link is a 404 as a revoked one: the page behind it is gone either way (the message says which).
const STATUS: Readonly<Record<BoardsErrorCode, 400 | 404>> = {
  [BoardsErrorCode.Invalid]: 400,
  [BoardsErrorCode.NotFound]: 404,
  [BoardsErrorCode.LinkNotFound]: 404,
  [BoardsErrorCode.LinkExpired]: 404,
};

/** A refused board request; libs/http's filters answer with its code's status. */
export class BoardsError extends domainErrorOf(STATUS) {}

export const invalidBoard = (message: string) => new BoardsError(BoardsErrorCode.Invalid, message);
