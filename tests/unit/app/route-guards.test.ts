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
  "app/api/invitations/[token]/register/route.ts", // registration through an invitation: the token is the permission
]);
const SESSION_CHECK = /\b(requireUser|requireWorkspace|requireWorkspaceById|requireInstanceAdmin|sessionUserId)\(/;

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

  // One route shape: the caller is checked before the body is read, and bodies/queries are parsed
  // by a zod schema in a schema.ts beside the route (never inline, never by hand).
  it.each(files.filter((f) => f.startsWith("app/api/") && !f.startsWith("app/api/auth/") && !PUBLIC_ROUTES.has(f)))(
    "%s checks the caller before parsing",
    (file) => {
      const text = fs.readFileSync(file, "utf8");
      for (const handler of text.split(/export (?:const|async function) /).slice(1)) {
        const guard = handler.search(SESSION_CHECK);
        const parse = handler.search(/\b(parseJson|parseQuery|readJson)\(/);
        if (parse >= 0) expect(guard, `${file}: guard before parse`).toBeGreaterThanOrEqual(0);
        if (parse >= 0) expect(guard).toBeLessThan(parse);
      }
      if (/\b(parseJson|parseQuery)\(/.test(text)) expect(text).toMatch(/from "\.\.?\/(\.\.\/)?schema"/);
      expect(text).not.toMatch(/\bz\.object\(/);
    },
  );

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
