/**
 * The base image CI builds Switchboard's image on (the Containerfile's BASE_IMAGE). Images cannot be
 * pulled here, so Debian bookworm comes from `mmdebstrap --variant=minbase`, imported into podman's
 * storage once and kept; on it go the Node and npm this run uses, at /usr/local where the official
 * Node image has them, and the host's own CA certificates (a TLS-inspecting proxy's, if any).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { podman, podmanOk } from "./podman.mjs";

/** Debian bookworm minbase, as imported (kept between runs: mmdebstrap takes minutes). */
export const DEBIAN_IMAGE = "localhost/switchboard-ci-debian:bookworm";
/** That plus Node, npm and the CA certificates: the BASE_IMAGE build argument. */
export const BASE_IMAGE = "localhost/switchboard-ci-base:latest";

const BASE_CONTAINERFILE = `FROM ${DEBIAN_IMAGE}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca /usr/local/share/ca-certificates
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && update-ca-certificates
# Node's own CA list does not hold a local CA; npm and the app's fetch then trust the system's list.
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
`;

/** Make the Debian image unless podman already holds it; returns whether it was made now. */
export async function ensureDebianImage(conf) {
  if ((await podman(["image", "exists", DEBIAN_IMAGE], { conf })).status === 0) return false;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-rootfs-"));
  const tarball = path.join(dir, "rootfs.tar");
  try {
    const made = spawnSync("mmdebstrap", ["--variant=minbase", "--include=ca-certificates", "bookworm", tarball], {
      stdio: "inherit",
      timeout: 20 * 60_000,
    });
    if (made.status !== 0) throw new Error(`mmdebstrap failed (${made.status ?? made.signal})`);
    await podmanOk(["import", tarball, DEBIAN_IMAGE], { conf, timeoutMs: 5 * 60_000 });
    return true;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Build BASE_IMAGE from the Debian image and `node` (default: the Node running this script, which
 * under `npm run` is the project's own). podman's layer cache makes an unchanged rebuild instant.
 */
export async function buildBaseImage(conf, node = process.execPath) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-base-"));
  try {
    fs.copyFileSync(node, path.join(dir, "node"));
    fs.cpSync(npmDir(), path.join(dir, "npm"), { recursive: true });
    fs.mkdirSync(path.join(dir, "ca"));
    const localCas = "/usr/local/share/ca-certificates";
    for (const name of fs.existsSync(localCas) ? fs.readdirSync(localCas) : []) {
      if (name.endsWith(".crt")) fs.copyFileSync(path.join(localCas, name), path.join(dir, "ca", name));
    }
    fs.writeFileSync(path.join(dir, "Containerfile"), BASE_CONTAINERFILE);
    await podmanOk(["build", "--network", "host", "-t", BASE_IMAGE, dir], { conf, timeoutMs: 5 * 60_000 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The npm package directory: the npm running this script (npm_execpath), else the one on PATH. */
function npmDir() {
  const cli = process.env.npm_execpath || spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();
  if (!cli) throw new Error("npm was not found (it goes into the base image)");
  const dir = path.resolve(path.dirname(fs.realpathSync(cli)), "..");
  if (!fs.existsSync(path.join(dir, "package.json"))) throw new Error(`${dir} is not npm's package directory`);
  return dir;
}
