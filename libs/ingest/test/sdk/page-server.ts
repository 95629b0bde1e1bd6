import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

export interface PageFile {
  contentType: string;
  body: string | Buffer;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>`: an origin of its own, other than the gateway's. */
  origin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Serves fixed files by path (GET only), as the site embedding the browser SDK. */
export async function startPageServer(files: Record<string, PageFile>): Promise<PageServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const file = req.method === 'GET' ? files[new URL(req.url ?? '/', 'http://page').pathname] : undefined;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': file.contentType, 'Cache-Control': 'no-store' }).end(file.body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const origin = await listen(server);
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}
