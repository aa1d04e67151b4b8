import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

/** A real server-everything over Streamable HTTP on 127.0.0.1, for browser tests. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Start `server-everything streamableHttp` and wait until it accepts connections. */
export async function startEverythingHttp(): Promise<RunningServer> {
  const port = await freePort();
  const entry = path.join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child: ChildProcess = spawn(process.execPath, [entry, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}
