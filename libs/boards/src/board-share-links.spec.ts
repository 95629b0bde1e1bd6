import { ManualClock } from '@analytics/clock';
import { BoardShareLinks } from './board-share-links';
import { BoardsError } from './boards-error';
import { BoardRow } from './boards.schema';

const DAY_MS = 86_400_000;
const board = (nonce: string | null, id = 7, projectId = 3) => ({ id, projectId, shareNonce: nonce }) as BoardRow;

describe('board share links', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 1));
  const links: BoardShareLinks = new BoardShareLinks('k'.repeat(43), clock);
  const refusal = (token: string, row: BoardRow | undefined) => {
    try {
      links.verify(token, row);
      return 'valid';
    } catch (error) {
      expect(error).toBeInstanceOf(BoardsError);
      return (error as BoardsError).code;
    }
  };

  it('verifies a link for its board and nonce until it expires, then says it expired', () => {
    const { token, expiresAt } = links.token(board('n1'), 'n1', 7);
    expect(expiresAt.toISOString()).toBe('2026-11-08T00:00:00.000Z');
    expect(links.boardIdOf(token)).toBe(7);
    expect(refusal(token, board('n1'))).toBe('valid');
    clock.advance(7 * DAY_MS - 1000);
    expect(refusal(token, board('n1'))).toBe('valid');
    clock.advance(1000);
    expect(refusal(token, board('n1'))).toBe('share_link_expired');
    clock.set(Date.UTC(2026, 10, 1));
  });

  it('refuses a revoked share, a rotated nonce, another board or project, and any tampering', () => {
    const { token } = links.token(board('n1'), 'n1', 7);
    expect(refusal(token, board(null))).toBe('share_link_not_found');
    expect(refusal(token, board('n2'))).toBe('share_link_not_found');
    expect(refusal(token, board('n1', 8))).toBe('share_link_not_found');
    expect(refusal(token, board('n1', 7, 4))).toBe('share_link_not_found');
    expect(refusal(token, undefined)).toBe('share_link_not_found');
    const [id, expires, signature] = token.split('.');
    expect(refusal(`${id}.${Number(expires) + 86_400}.${signature}`, board('n1'))).toBe('share_link_not_found');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect(refusal(`${id}.${expires}.${flipped}`, board('n1'))).toBe('share_link_not_found');
    expect(refusal('garbage', board('n1'))).toBe('share_link_not_found');
    expect(() => links.boardIdOf('0.1.x')).toThrow(expect.objectContaining({ code: 'invalid_board' }));
    expect(() => links.boardIdOf(`99999999999.${expires}.${signature}`)).toThrow(BoardsError);
  });

  it('signs with its own key: another key never verifies the token', () => {
    const { token } = links.token(board('n1'), 'n1', 7);
    const other = new BoardShareLinks('o'.repeat(43), clock);
    expect(() => other.verify(token, board('n1'))).toThrow(BoardsError);
  });
});
