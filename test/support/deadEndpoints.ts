import net from 'node:net';

/**
 * Addresses that do not behave like a server, for connection-failure tests: a port that
 * refuses connections, and a TCP server that accepts them and never answers.
 */

/** A loopback port with nothing listening (connections are refused). */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A running silent server: accepts connections, never sends a byte. */
export interface SilentServer {
  port: number;
  /** Destroys open connections and stops listening. */
  close(): void;
}

/** Starts a TCP server on 127.0.0.1 that accepts connections and never answers (a wedged service). */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  return {
    port: (silent.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    },
  };
}
