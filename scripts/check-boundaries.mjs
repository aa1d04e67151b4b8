#!/usr/bin/env node
// `npm run check:boundaries`: the import-boundary check (.dependency-cruiser.cjs) over the app's
// source folders, on the Node running this script (the project's Node 24 under npm).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs");
const args = [cli, "--config", ".dependency-cruiser.cjs", "--output-type", "err", "app", "lib", "db", "bin", "scripts"];
const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);
