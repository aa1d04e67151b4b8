import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { judgeRuntime, SUPPORTED_NODE_MAJOR } from "@/scripts/runtime.mjs";

const ROOT = path.resolve(__dirname, "../../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));

describe("the supported runtime", () => {
  it("is Node 24, and every declaration says so: .nvmrc, engines, the bundled node package, its types", () => {
    expect(SUPPORTED_NODE_MAJOR).toBe(24);
    expect(fs.readFileSync(path.join(ROOT, ".nvmrc"), "utf8").trim()).toBe("24");
    expect(pkg.engines.node).toMatch(/^\^24\./);
    expect(pkg.dependencies.node).toMatch(/^\^24\./);
    expect(pkg.devDependencies["@types/node"]).toMatch(/^\^24\./);
  });

  it("is the Node these tests run on", () => {
    expect(Number(process.versions.node.split(".")[0])).toBe(SUPPORTED_NODE_MAJOR);
  });

  it("stops an older Node with the fix, warns on a newer one, and names where the Node comes from", () => {
    const old = judgeRuntime("switchboard", "20.20.2", "/usr/bin/node");
    expect(old.verdict).toBe("stop");
    expect(old.message).toContain("runs on Node 24 (this is Node 20.20.2, /usr/bin/node)");
    expect(old.message).toContain("node_modules/.bin/node");

    const own = judgeRuntime("switchboard", "24.21.0", path.join(fs.realpathSync(ROOT), "node_modules/node/bin/node"));
    expect(own).toEqual({ verdict: "ok", line: "Node 24.21.0 (the project's runtime, node_modules/node)", message: "" });
    expect(judgeRuntime("switchboard", "24.11.0", "/usr/local/bin/node").line).toBe("Node 24.11.0 (/usr/local/bin/node)");

    const newer = judgeRuntime("switchboard", "26.1.0", "/usr/local/bin/node");
    expect(newer.verdict).toBe("warn");
    expect(newer.message).toContain("not the tested runtime (Node 24)");
  });
});
