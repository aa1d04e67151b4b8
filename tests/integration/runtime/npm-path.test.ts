/**
 * The README's commands run on the project's Node whatever the machine's own is: npm puts
 * node_modules/.bin (the npm `node` package) first on the PATH of what it runs, and better-sqlite3's
 * prebuilt Node-API binary loads on it.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");
// The PATH of a shell on this machine, without the node_modules/.bin that npm or npx added for us.
const SYSTEM_PATH = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((dir) => !dir.endsWith(`node_modules${path.sep}.bin`))
  .join(path.delimiter);

/** `npm exec -- node <args>` from the project, started from the machine's PATH. */
function npmNode(args: string[]) {
  const cli = process.env.npm_execpath;
  const [command, prefix] = cli ? [process.execPath, [cli]] : ["npm", []];
  return spawnSync(command, [...prefix, "exec", "--", "node", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, PATH: SYSTEM_PATH },
    timeout: 60_000,
  });
}

describe("npm runs the project's Node", () => {
  it("finds node_modules/.bin/node first, the Node 24 of the npm node package", () => {
    const result = npmNode(["-p", "process.versions.node + ' ' + process.execPath"]);
    expect(result.status, result.stderr).toBe(0);
    const [version, execPath] = result.stdout.trim().split(" ");
    expect(version).toMatch(/^24\./);
    expect(execPath).toBe(path.join(ROOT, "node_modules/node/bin/node"));
  });

  it("loads better-sqlite3 13 there from its prebuilt Node-API binary, with no compiled build", () => {
    const script = [
      "const Database = require('better-sqlite3');",
      "const db = new Database(':memory:');",
      "console.log(require('better-sqlite3/package.json').version, db.prepare('select 41 + 1 as n').get().n);",
      "console.log(require('node:fs').existsSync(require('node:path').join(require.resolve('better-sqlite3'), '../../build')));",
    ].join("");
    const result = npmNode(["-e", script]);
    expect(result.status, result.stderr).toBe(0);
    const [loaded, built] = result.stdout.trim().split("\n");
    expect(loaded).toMatch(/^13\.\d+\.\d+ 42$/);
    expect(built).toBe("false");
  });
});
