/**
 * Debian's nginx running the documented replica configuration (deploy/nginx.conf) in a temp dir:
 * the upstream list replaced by `upstreams`, listening on 127.0.0.1:`port`, no system file touched.
 * Used by tests/integration/cluster/nginx-config.test.ts and the bench's cluster run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitForPort } from "./ports";

/** The nginx binary Debian installs. */
export const NGINX = "/usr/sbin/nginx";

/** A running nginx. */
export interface TestNginx {
  port: number;
  stop(): Promise<void>;
}

/** Start nginx with deploy/nginx.conf (read from the working directory, the project's root) in front of `upstreams` (loopback ports), on `port`. */
export async function startNginx(upstreams: number[], port: number): Promise<TestNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-nginx-"));
  const documented = fs.readFileSync(path.resolve("deploy/nginx.conf"), "utf8");
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join("\n");
  const site = documented
    .replace(/(upstream switchboard \{\n)(?:\s*server [^\n]*\n)+/, `$1${servers}\n`)
    .replace("listen 8080;", `listen 127.0.0.1:${port};`);
  // A minimal main configuration around the documented site, everything under the temp dir.
  const main = `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {}
http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
${site} }`;
  fs.writeFileSync(path.join(dir, "nginx.conf"), main);
  const child: ChildProcess = spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", dir, "-e", path.join(dir, "error.log")], {
    stdio: "ignore",
  });
  await waitForPort(port);
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
