/**
 * A TCP front for an upstream MCP server that can be switched to reset every connection, open or
 * new (an upstream that resets connections under load), for the tests of upstream failures.
 */
import net from "node:net";

/** The proxy, its counters, and the switch that resets everything from now on. */
export interface ResettingProxy {
  server: net.Server;
  state: { resetting: boolean; resets: number };
  resetAll(): void;
}

/** A proxy to `127.0.0.1:target`; `resetting` makes it reset every connection from the start. */
export function resettingProxy(target: number, resetting = false): ResettingProxy {
  const sockets = new Set<net.Socket>();
  const state = { resetting, resets: 0 };
  const server = net.createServer((client) => {
    if (state.resetting) {
      state.resets++;
      client.resetAndDestroy();
      return;
    }
    const upstreamSocket = net.connect(target, "127.0.0.1");
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => upstreamSocket.destroy());
    upstreamSocket.on("error", () => client.destroy());
    client.pipe(upstreamSocket).pipe(client);
  });
  return {
    server,
    state,
    resetAll() {
      state.resetting = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
  };
}

/** Listen on a free loopback port; answers the port. */
export async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}
