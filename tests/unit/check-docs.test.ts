import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// scripts/check-docs.mjs against a small tree of its own: clean, it passes; each kind of drift
// planted once makes it exit 1 with one `file:line:` line naming that drift.
const SCRIPT = path.resolve("scripts/check-docs.mjs");

const CLEAN: Record<string, string> = {
  "README.md": "# Demo\n\nSee [the guide](docs/guide.md#first-steps) and `lib/env.ts`.\n",
  "docs/guide.md": [
    "# Guide",
    "",
    "## First steps",
    "",
    "Call `readSetting()` (`lib/env.ts`); `lib/env.ts`'s `readSetting` (`lib/env.ts#readSetting`) reads the variable.",
    "The files `lib/` and `app/**/route.ts`, `tests/<kind>/*.test.ts` and `env.ts` exist; so does lib/env.ts.",
    "Back to [the top](#guide) or [configuration](configuration.md#environment-variables).",
    "```sh",
    "cat lib/missing.ts [dead](nowhere.md) `ghost()`",
    "```",
    "",
  ].join("\n"),
  "docs/configuration.md": [
    "# Configuration",
    "",
    "## Environment variables",
    "",
    "| variable | default | meaning |",
    "| --- | --- | --- |",
    "| `SWITCHBOARD_DEMO` | `1` | a demo setting |",
    "| `PORT` | `3000` | the port |",
    "",
    "## Server config",
    "",
    "| key | meaning |",
    "| --- | --- |",
    "| `SWITCHBOARD_NOT_A_VARIABLE_HERE` | outside the environment section: not a variable |",
    "",
  ].join("\n"),
  "lib/env.ts": [
    "/** The demo setting. */",
    "export function readSetting(): string | undefined {",
    "  return process.env.SWITCHBOARD_DEMO;",
    "}",
    "",
  ].join("\n"),
  "app/api/demo/route.ts": "export const GET = () => new Response(null);\n",
  "scripts/start.mjs": "const port = process.env.PORT || 3000;\nconsole.log(port);\n",
  "tests/unit/demo.test.ts": "export {};\n",
};

/** One drift each: the file it changes, its new text, and the line the check must print. */
const DRIFTS: { name: string; file: string; text: string; expect: RegExp }[] = [
  { name: "a dead link", file: "docs/more.md", text: "# More\n\nSee [gone](gone.md).\n", expect: /^docs\/more\.md:3: dead link gone\.md/m },
  {
    name: "a dead anchor",
    file: "docs/more.md",
    text: "# More\n\nSee [steps](guide.md#last-steps).\n",
    expect: /^docs\/more\.md:3: dead link guide\.md#last-steps: no heading "#last-steps"/m,
  },
  {
    name: "a backticked path that does not exist",
    file: "docs/more.md",
    text: "# More\n\nThe pool is `lib/mcp/pool.ts`.\n",
    expect: /^docs\/more\.md:3: `lib\/mcp\/pool\.ts` names no file or folder/m,
  },
  {
    name: "a bare file name no file has",
    file: "docs/more.md",
    text: "# More\n\nSee `pool.ts`.\n",
    expect: /^docs\/more\.md:3: `pool\.ts` names no file of the tree/m,
  },
  {
    name: "a path in prose that does not exist",
    file: "docs/more.md",
    text: "# More\n\nSee docs/gone.md for more.\n",
    expect: /^docs\/more\.md:3: docs\/gone\.md names no file or folder/m,
  },
  {
    name: "a path in prose whose anchor is gone",
    file: "docs/more.md",
    text: "# More\n\nSee docs/guide.md#last-steps.\n",
    expect: /^docs\/more\.md:3: docs\/guide\.md#last-steps: no such heading/m,
  },
  {
    name: "a call the code does not have",
    file: "docs/more.md",
    text: "# More\n\nEvery route calls `requireUser()`.\n",
    expect: /^docs\/more\.md:3: `requireUser\(\)`: no `requireUser` in the code or its dependencies/m,
  },
  {
    name: "a symbol its file does not contain",
    file: "docs/more.md",
    text: "# More\n\n`lib/env.ts`'s `writeSetting`, `dataDir` in `lib/env.ts` and `lib/env.ts#secretKey`.\n",
    expect:
      /^docs\/more\.md:3: `writeSetting` is not in lib\/env\.ts\n.*docs\/more\.md:3: `dataDir` is not in lib\/env\.ts\n.*docs\/more\.md:3: `secretKey` is not in lib\/env\.ts/m,
  },
  {
    name: "a bare camelCase name nothing declares",
    file: "docs/more.md",
    text: "# More\n\nThe `readSetting` function, not `writeSetting`.\n",
    expect: /^docs\/more\.md:3: `writeSetting` is no name of the code, its configs or its dependencies/m,
  },
  {
    name: "a variable read but not documented",
    file: "lib/env.ts",
    text: "/** Two settings. */\nexport const both = () => [process.env.SWITCHBOARD_DEMO, process.env.SWITCHBOARD_SECRET];\n",
    expect: /^lib\/env\.ts:2: SWITCHBOARD_SECRET is read here but not documented in docs\/configuration\.md/m,
  },
  {
    name: "a variable documented but never read",
    file: "scripts/start.mjs",
    text: "console.log(3000);\n",
    expect: /^docs\/configuration\.md:8: PORT is documented but no code reads it/m,
  },
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "check-docs-"));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function checkDocs(dir: string): { status: number | null; out: string } {
  const result = spawnSync(process.execPath, [SCRIPT, "--root", dir], { encoding: "utf8" });
  return { status: result.status, out: `${result.stderr}${result.stdout}` };
}

describe("npm run check:docs", () => {
  it("passes a tree whose docs are true (fenced code blocks are not read)", () => {
    const { status, out } = checkDocs(tree(CLEAN));
    expect(out).toContain("check-docs: 3 pages, 0 findings");
    expect(status).toBe(0);
  });

  it.each(DRIFTS)("fails on $name, naming the file and line", ({ file, text, expect: expected }) => {
    const { status, out } = checkDocs(tree({ ...CLEAN, [file]: text }));
    expect(out).toMatch(expected);
    expect(status).toBe(1);
  });

  it("writing a variable counts as using it (a variable the app sets for a library)", () => {
    const files = {
      ...CLEAN,
      "docs/configuration.md": CLEAN["docs/configuration.md"].replace(
        "| `PORT` |",
        "| `AUTH_TRUST_HOST` | set | the app sets it |\n| `PORT` |",
      ),
      "lib/trust.ts": 'export const trustHost = () => {\n  process.env.AUTH_TRUST_HOST = "1";\n};\n',
    };
    const { status, out } = checkDocs(tree(files));
    expect(out).toContain("0 findings");
    expect(status).toBe(0);
  });
});
