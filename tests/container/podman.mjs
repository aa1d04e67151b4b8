/**
 * podman for the container smoke test (tests/container/smoke.mjs): the Debian packages it needs,
 * a private containers.conf (runc, no default ulimits: this host's hybrid cgroups refuse crun and
 * the default ulimits), and commands run with a time limit. Nothing under /etc is changed.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Debian packages the smoke test runs: podman and runc, and mmdebstrap for the base image. */
export const PACKAGES = [
  { pkg: "podman", probe: "/usr/bin/podman" },
  { pkg: "runc", probe: "/usr/sbin/runc" },
  { pkg: "mmdebstrap", probe: "/usr/bin/mmdebstrap" },
];

/**
 * Install the missing packages when root (apt-get); returns null when all are there, otherwise
 * why they are not (the stage then fails and says so).
 */
export function ensurePackages() {
  const missing = PACKAGES.filter((p) => !fs.existsSync(p.probe)).map((p) => p.pkg);
  if (!missing.length) return null;
  if (process.getuid?.() !== 0) return `missing Debian packages: ${missing.join(" ")} (sudo apt-get install -y ${missing.join(" ")})`;
  console.log(`container smoke: installing ${missing.join(", ")} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-q"],
    ["install", "-y", "-q", "--no-install-recommends", ...missing],
  ]) {
    if (spawnSync("apt-get", args, { stdio: "inherit", env }).status !== 0)
      return `apt-get ${args[0]} failed; install ${missing.join(" ")}`;
  }
  return null;
}

/** A containers.conf for this run under a temp dir; podman reads it through CONTAINERS_CONF. */
export function writeContainersConf() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-podman-"));
  const file = path.join(dir, "containers.conf");
  fs.writeFileSync(file, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  return file;
}

/**
 * Run `podman args…`; resolves with its exit status and output (stdout and stderr also stream to
 * ours when `echo`). A command still running after `timeoutMs` is killed and counts as failed.
 */
export function podman(args, { conf, timeoutMs = 120_000, echo = false, cwd } = {}) {
  return new Promise((resolve) => {
    const child = spawn("podman", args, { cwd, env: { ...process.env, CONTAINERS_CONF: conf }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: -1, stdout, stderr: `${stderr}${error.message}` });
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status: status ?? -1, stdout, stderr });
    });
  });
}

/** `podman args…` that must succeed: its stdout, trimmed, or an Error naming the command and its stderr. */
export async function podmanOk(args, options) {
  const result = await podman(args, options);
  if (result.status !== 0) {
    throw new Error(
      `podman ${args.slice(0, 2).join(" ")} failed (${result.status}): ${result.stderr.trim().split("\n").slice(-5).join(" | ")}`,
    );
  }
  return result.stdout.trim();
}
