/** Loopback ports for tests of what cannot connect. */
import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port that was free a moment ago (bound, then released): connecting to it is refused.
 * Not a "bad port" such as 1 or 9, which fetch refuses before connecting.
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
