import { Server } from 'node:http';
import { Socket } from 'node:net';

/**
 * Closes connections whose client stopped taking the response: bytes have waited in the socket's
 * write buffer, with no 'drain', for `stallMs`. The header and request timeouts only watch what a
 * client sends; without this, a client that asks for an export and reads nothing holds its
 * connection, and the engine query behind it, open without end. Destroying the socket closes the
 * response, whose 'close' aborts the query (export's AbortController).
 *
 * A response that waits on the engine with nothing buffered is not stalled: only a full buffer
 * that the client leaves full counts. One timer per server looks at every open connection.
 */
export function closeStalledWrites(server: Server, stallMs: number): void {
  const stalledSince = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    stalledSince.set(socket, 0);
    // A drain is progress: the client took everything that waited.
    socket.on('drain', () => stalledSince.set(socket, 0));
    socket.once('close', () => stalledSince.delete(socket));
  });
  const timer = setInterval(
    () => {
      // Real time, not the Clock: how long a socket has waited, measured against setInterval's ticks.
      const now = Date.now();
      for (const [socket, since] of stalledSince) {
        if (!socket.writableNeedDrain) stalledSince.set(socket, 0);
        else if (since === 0) stalledSince.set(socket, now);
        else if (now - since >= stallMs) socket.destroy();
      }
    },
    // Looked at a few times per period, so a stall is cut between stallMs and 1.25 stallMs.
    Math.max(250, stallMs / 4),
  );
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
