import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort, waitForPort } from "../../helpers/ports";

/** A real server-everything over Streamable HTTP on 127.0.0.1, for browser tests. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Start `server-everything streamableHttp` and wait until it accepts connections. */
export async function startEverythingHttp(): Promise<RunningServer> {
  const port = await freePort();
  const entry = path.join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child: ChildProcess = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  await waitForPort(port);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Start the records fixture (tests/fixtures/mcp/records-http-server.mjs): one tool with an array-of-records result. */
export async function startRecordsHttp(): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(process.cwd(), "tests/fixtures/mcp/records-http-server.mjs")], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  await waitForPort(port);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
