import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signInStdioAdmin } from "./helpers/stdio-admin";

// stdio servers added through the web API run in the bubblewrap sandbox (docs/security.md#stdio-sandbox).
test("an admin's stdio servers run sandboxed through the web API, the launch shown first", async ({ page }) => {
  // Creating stdio servers needs an administrator with a second factor.
  await signInStdioAdmin(page);
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-e2e-shared-"));
  // Sandboxed servers run as their own unprivileged uid: a shared folder must be world-readable.
  fs.chmodSync(shared, 0o755);
  fs.writeFileSync(path.join(shared, "note.txt"), "shared with the sandbox\n");

  const add = async (name: string, config: Record<string, unknown>) => {
    const response = await page.request.post("/api/servers", { data: { name, config } });
    expect(response.status(), await response.text()).toBe(201);
    return response.json();
  };
  const everything = await add("boxed-everything", {
    command: "node",
    args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
    env: { BOXED_SECRET: "boxed-secret-value" },
  });
  // The exact launch is returned before anything runs: command, args, env names (never values).
  expect(everything.launch.text).toContain("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  expect(everything.launch.envNames).toEqual(["BOXED_SECRET"]);
  expect(JSON.stringify(everything)).not.toContain("boxed-secret-value");
  // Saving starts it (the launch above is what runs): no page has to.
  expect((await (await page.request.get(`/api/servers/${everything.id}/status`)).json()).state).not.toBe("idle");

  const call = async (id: string, name: string, args: Record<string, unknown>) =>
    (await page.request.post(`/api/servers/${id}/tools/call`, { data: { name, arguments: args } })).json();
  expect((await call(everything.id, "echo", { message: "in a box" })).content[0].text).toBe("Echo: in a box");
  const env = JSON.parse((await call(everything.id, "get-env", {})).content[0].text);
  expect(env.HOME).toBe("/home/sandbox");
  expect(env.BOXED_SECRET).toBe("boxed-secret-value");
  expect(env.NEXTAUTH_SECRET).toBeUndefined();
  expect(env.SWITCHBOARD_DATA_DIR).toBeUndefined();
  expect(env.DATABASE_URL).toBeUndefined();

  const files = await add("boxed-files", {
    command: "node",
    args: [path.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), shared],
    read_only_paths: [shared],
  });
  expect(files.launch.readOnlyPaths).toEqual([shared]);
  const read = await call(files.id, "read_text_file", { path: path.join(shared, "note.txt") });
  expect(JSON.stringify(read)).toContain("shared with the sandbox");
  const write = await call(files.id, "write_file", { path: path.join(shared, "new.txt"), content: "x" });
  expect(write.isError).toBe(true);
  expect(fs.existsSync(path.join(shared, "new.txt"))).toBe(false);

  // The Servers page shows how it runs.
  await page.goto("/servers");
  await expect(page.getByTestId("server-boxed-everything").getByTestId("launch-description")).toContainText("BOXED_SECRET");
  fs.rmSync(shared, { recursive: true, force: true });
});
