/**
 * The nginx configuration docs/deployment.md gives for replicas (deploy/nginx.conf), run by Debian's
 * nginx in front of two small upstreams standing for replicas: requests alternate between them, a
 * stream's chunks come through before it ends (unbuffered), a stopped upstream is skipped, and a
 * write an upstream took and then dropped is not sent again.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNginx, type TestNginx } from "../../helpers/nginx";
import { freePort } from "../../helpers/ports";

interface Upstream {
  name: string;
  port: number;
  server: http.Server;
  writes: number;
}

let nginx: TestNginx;
let port: number;
const upstreams: Upstream[] = [];

/** An upstream that names itself, streams `/stream`, and drops `POST /drop` without answering. */
async function upstream(name: string): Promise<Upstream> {
  const entry: Upstream = { name, port: await freePort(), server: http.createServer(), writes: 0 };
  entry.server.on("request", (req, res) => {
    if (req.url === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream", "x-replica": name });
      res.write("data: first\n\n");
      setTimeout(() => res.end("data: last\n\n"), 1_500);
      return;
    }
    if (req.method === "POST" && req.url === "/drop") {
      entry.writes++;
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { "x-replica": name });
    res.end(name);
  });
  await new Promise<void>((resolve) => entry.server.listen(entry.port, "127.0.0.1", resolve));
  return entry;
}

beforeAll(async () => {
  upstreams.push(await upstream("a"), await upstream("b"));
  port = await freePort();
  nginx = await startNginx(
    upstreams.map((u) => u.port),
    port,
  );
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(upstreams.map((u) => new Promise((r) => u.server.close(r))));
});

const get = async (pathname: string) => {
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`);
  return { status: response.status, replica: response.headers.get("x-replica"), response };
};

describe("deploy/nginx.conf", () => {
  it("sends requests to each replica in turn", async () => {
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push((await get("/")).replica);
    expect(new Set(seen)).toEqual(new Set(["a", "b"]));
    expect(seen.filter((r) => r === "a")).toHaveLength(3);
  });

  it("passes a stream's first chunk on before the stream ends", async () => {
    const started = Date.now();
    const { response } = await get("/stream");
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain("data: first");
    expect(Date.now() - started).toBeLessThan(1_200);
    await reader?.cancel();
  });

  it("skips a replica that refuses connections, and does not send a dropped write again", async () => {
    const [a, b] = upstreams;
    await new Promise((r) => a.server.close(r));
    a.server.closeAllConnections();
    const replies = await Promise.all(Array.from({ length: 4 }, () => get("/")));
    expect(replies.map((r) => [r.status, r.replica])).toEqual(Array(4).fill([200, "b"]));

    const before = b.writes;
    const dropped = await fetch(`http://127.0.0.1:${port}/drop`, { method: "POST", body: "x" });
    expect(dropped.status).toBe(502);
    expect(b.writes - before).toBe(1);
  });
});
