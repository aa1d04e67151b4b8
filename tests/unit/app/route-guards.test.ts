/**
 * Every route handler checks the session itself (middleware is not a guard): a structural check
 * that each route file under app/ asks who is calling, except the few that are public by design.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PUBLIC_ROUTES = new Set([
  "app/api/auth/[...nextauth]/route.ts", // next-auth's own sign-in endpoints
  "app/api/health/route.ts", // liveness, no data
  "app/oauth/client-metadata.json/route.ts", // the public OAuth client metadata document
]);
const SESSION_CHECK = /\b(requireUser|callerAndServer|sessionUserId)\(/;

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

describe("route guards", () => {
  const files = routeFiles("app").map((f) => f.split(path.sep).join("/"));

  it("finds the routes", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.filter((f) => !PUBLIC_ROUTES.has(f)))("%s checks the session", (file) => {
    expect(fs.readFileSync(file, "utf8")).toMatch(SESSION_CHECK);
  });

  // A body is read only after the session check, so an anonymous caller cannot make the app
  // buffer or parse anything (docs/limits.md); bodies are read through the capped helpers.
  it.each(files.filter((f) => !PUBLIC_ROUTES.has(f)))("%s checks the session before reading a body", (file) => {
    const source = fs.readFileSync(file, "utf8");
    const body = source.search(/\b(readJson|parseBody|readBodyText|readServerRef)\(|request\.(json|text|formData|arrayBuffer)\(/);
    if (body === -1) return;
    expect(source.search(SESSION_CHECK)).toBeLessThan(body);
    expect(source).not.toMatch(/request\.(json|text|formData|arrayBuffer)\(/);
  });

  it("lists only public routes that exist", () => {
    for (const file of PUBLIC_ROUTES) expect(files).toContain(file);
  });
});
