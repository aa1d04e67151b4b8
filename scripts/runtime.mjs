// The Node the project runs on: the major in .nvmrc (24). `npm ci` brings it as the npm `node`
// package, and npm puts node_modules/.bin first on the PATH of its scripts, so `npm start` and
// `npm test` run on it whatever the machine's own Node is. Entry points check it first, so a wrong
// Node stops with the fix instead of failing later inside a dependency.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fs.realpathSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

/** The supported Node major version, read from .nvmrc. */
export const SUPPORTED_NODE_MAJOR = Number(fs.readFileSync(path.join(root, ".nvmrc"), "utf8").trim().split(".")[0]);

/**
 * What `name` should do on Node `version` at `execPath`: stop on an older major (with the fix), warn
 * on a newer one; `line` names the Node in use and where it comes from.
 */
export function judgeRuntime(name, version = process.versions.node, execPath = process.execPath) {
  const major = Number(version.split(".")[0]);
  const own = execPath.startsWith(path.join(root, "node_modules") + path.sep);
  const line = `Node ${version} (${own ? "the project's runtime, node_modules/node" : execPath})`;
  if (major < SUPPORTED_NODE_MAJOR) {
    const fix =
      `Run it through npm (npm start, npm test, npx switchboard): after npm ci, npm runs the project's ` +
      `Node ${SUPPORTED_NODE_MAJOR} from node_modules/.bin/node.`;
    return {
      verdict: "stop",
      line,
      message: `${name}: runs on Node ${SUPPORTED_NODE_MAJOR} (this is Node ${version}, ${execPath}). ${fix}`,
    };
  }
  if (major > SUPPORTED_NODE_MAJOR) {
    const message = `${name}: Node ${version} is not the tested runtime (Node ${SUPPORTED_NODE_MAJOR}); npm start and npm test use the project's own.`;
    return { verdict: "warn", line, message };
  }
  return { verdict: "ok", line, message: "" };
}

/** Stops the process with the fix on an older Node, warns on a newer one; returns the one-line description. */
export function checkRuntime(name) {
  const { verdict, line, message } = judgeRuntime(name);
  if (verdict === "stop") {
    console.error(message);
    process.exit(1);
  }
  if (verdict === "warn") console.warn(message);
  return line;
}
