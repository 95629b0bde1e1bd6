import { temporaryDirectory } from '@analytics/testing';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AddressInfo, connect, Socket } from 'node:net';
import { join } from 'node:path';
import { createServer, getCACertificates, setDefaultCACertificates } from 'node:tls';

export interface TlsFront {
  /** `127.0.0.1:<port>`, as the node SDK's `host` option takes it. */
  host: string;
  port: number;
  /** The self-signed certificate (PEM) clients must trust. */
  certificate: string;
  close(): Promise<void>;
}

/** A throwaway self-signed certificate for 127.0.0.1, made with the system's openssl. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = temporaryDirectory('sdk-tls');
  try {
    const [key, cert] = [join(dir.path, 'key.pem'), join(dir.path, 'cert.pem')];
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
    args.push('-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert);
    try {
      execFileSync('openssl', args, { stdio: 'pipe' });
    } catch (error) {
      throw new Error(
        `could not make a test certificate with openssl (apt-get install -y openssl): ${(error as Error).message}`,
      );
    }
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    dir.remove();
  }
}

/**
 * HTTPS in front of a plain-HTTP service, as a load balancer would terminate it: the node SDK
 * refuses to send its API secret over anything but HTTPS.
 */
export async function startTlsFront(targetBaseUrl: string): Promise<TlsFront> {
  const target = new URL(targetBaseUrl);
  const { key, cert } = selfSignedCertificate();
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer({ key, cert }, (client) => {
    const upstream = connect(Number(target.port), target.hostname);
    track(upstream);
    const destroy = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', destroy).on('close', destroy);
    upstream.on('error', destroy).on('close', destroy);
    client.pipe(upstream).pipe(client);
  });
  server.on('connection', track);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    port,
    certificate: cert,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive clients would hold the listener open: their connections end with it.
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

/**
 * Makes this process's TLS clients trust one more certificate (alongside the usual roots), for
 * clients such as mixpanel-node that take no CA option; returns the undo. Unlike
 * NODE_TLS_REJECT_UNAUTHORIZED=0 it leaves certificate checking on and trusts only this certificate.
 */
export function trustCertificate(certificate: string): () => void {
  const previous = getCACertificates('default');
  setDefaultCACertificates([...previous, certificate]);
  return () => setDefaultCACertificates(previous);
}
