#!/usr/bin/env node
/**
 * A TCP proxy that adds a fixed one-way delay to every chunk in both directions, so a local MCP
 * server answers like a remote one (`round trip = 2 × delay`). Used by the parallel-connect figure
 * (bench/goals.ts): connecting to a remote server is mostly waiting, which a local server on the
 * same two cores does not show. Order is kept: every chunk waits the same time.
 *
 * `node bench/latency-proxy.mjs <one-way delay ms> <target port>...`: one listening port per target,
 * printed on one line as `listening <port>...` in the targets' order.
 */
import net from "node:net";

const [delayMs, ...targetPorts] = process.argv.slice(2).map(Number);
if (!(delayMs >= 0) || targetPorts.length === 0 || targetPorts.some((p) => !p)) {
  console.error("usage: latency-proxy.mjs <one-way delay ms> <target port>...");
  process.exit(2);
}

const later = (fn) => setTimeout(fn, delayMs);

function proxyTo(targetPort) {
  return net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect(targetPort, "127.0.0.1");
    upstream.setNoDelay(true);
    const pipe = (from, to) => {
      from.on("data", (chunk) => later(() => to.destroyed || to.write(chunk)));
      from.on("end", () => later(() => to.end()));
      from.on("error", () => later(() => to.destroy()));
      from.on("close", () => later(() => to.destroy()));
    };
    pipe(client, upstream);
    pipe(upstream, client);
  });
}

const ports = await Promise.all(
  targetPorts.map(
    (target) =>
      new Promise((resolve) => {
        const server = proxyTo(target);
        server.listen(0, "127.0.0.1", () => resolve(server.address().port));
      }),
  ),
);
process.stdout.write(`listening ${ports.join(" ")}\n`);
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
