/**
 * Every route handler checks the session itself (middleware is not a guard): a structural check
 * that each route file under app/ asks who is calling, except the few that are public by design.
 * And the composition rule (docs/architecture.md#one-composition-layer): routes and server pages
 * reach lib/ only through lib/use-cases/, and only lib/use-cases/ and lib/runtime/ bind the
 * database handle and the engine pool.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PUBLIC_ROUTES = new Set([
  "app/api/auth/[...nextauth]/route.ts", // next-auth's own sign-in endpoints
  "app/api/health/route.ts", // liveness, no data
  "app/api/health/ready/route.ts", // readiness for a load balancer, no data
  "app/oauth/client-metadata.json/route.ts", // the public OAuth client metadata document
  "app/api/invitations/[token]/register/route.ts", // registration through an invitation: the token is the permission
  "app/api/password-reset/[token]/route.ts", // a new password through a reset link: the token is the permission
  "app/api/auth/forgot-password/route.ts", // asking for a reset link by email: nobody is signed in
  "app/api/auth/passkey/route.ts", // the options of a passkey sign-in: nobody is signed in yet
  "app/api/metrics/route.ts", // the Prometheus scrape: SWITCHBOARD_METRICS_TOKEN as a bearer token is the permission
  "app/api/internal/sandbox/route.ts", // the internal hop between replicas: its proof (lib/runtime/internal-hop.ts) is the permission
]);
const SESSION_CHECK =
  /\b(requireUser|requireUserOrToken|requireToken|requireWorkspace|requireWorkspaceById|requireInstanceAdmin|sessionUserId)\(/;

/**
 * What app/ may import as a value: the composition layer, the route wrapper and parsers, the shared
 * domain types, the error class, the direct lane's contract (app/_direct), and app/ itself.
 * Type-only imports are erased at build time and bind nothing, so they are free.
 */
const APP_MAY_IMPORT = /^(lib\/use-cases\/|lib\/http\.ts$|lib\/domain\/|lib\/errors\.ts$|lib\/lane\/|app\/)/;
/** Where the database handle and the engine pool may be bound. */
const MAY_BIND = /^(lib\/use-cases\/|lib\/runtime\/|lib\/cli\/|db\/)/;
const BINDS = /\b(getDb|appPool)\(\)/;

/** A module specifier as a project path (`lib/http.ts`, `db/client`), or null for a package. */
function projectPath(from: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("@/")) target = specifier.slice(2);
  else if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  for (const ext of ["", ".ts", ".tsx"]) if (/\.(tsx?|json)$/.test(target + ext) && fs.existsSync(target + ext)) return target + ext;
  return target;
}

/** The value imports (and re-exports) of an app/ file that reach past the composition layer. */
function compositionViolations(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gms)) {
    if (match[2]) continue; // type-only: erased
    const target = projectPath(file, match[4]);
    if (target && !APP_MAY_IMPORT.test(target)) found.push(`${file} imports ${match[4]}`);
  }
  if (BINDS.test(text)) found.push(`${file} binds the database or the pool`);
  return found;
}

/** Whether a file outside the composition layer and the process wiring binds the database handle or the pool. */
function bindsOutsideComposition(file: string, text: string): boolean {
  return !MAY_BIND.test(file) && BINDS.test(text);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full.split(path.sep).join("/")] : [];
  });
}

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

describe("one composition layer", () => {
  // Browser code (app/_components) is fenced by the boundary check's client rules instead.
  const appFiles = sourceFiles("app").filter((f) => !f.startsWith("app/_components/"));
  const libFiles = ["lib", "app"].flatMap(sourceFiles).concat(["proxy.ts", "instrumentation.ts"].filter((f) => fs.existsSync(f)));

  it("finds the routes, pages and lib modules", () => {
    expect(appFiles.length).toBeGreaterThan(60);
    expect(libFiles.length).toBeGreaterThan(300);
  });

  it.each(appFiles)("%s reaches lib/ only through lib/use-cases/", (file) => {
    expect(compositionViolations(file, fs.readFileSync(file, "utf8"))).toEqual([]);
  });

  it("only lib/use-cases/ and lib/runtime/ bind the database handle and the engine pool", () => {
    expect(libFiles.filter((f) => bindsOutsideComposition(f, fs.readFileSync(f, "utf8")))).toEqual([]);
  });

  // The checks themselves, on planted violations: each would let a second convention back in.
  it("flags a route that imports db/, a domain module, or binds the handle", () => {
    const route = "app/api/things/route.ts";
    expect(compositionViolations(route, 'import { getDb } from "@/db/client";\n')).toEqual([`${route} imports @/db/client`]);
    expect(compositionViolations(route, 'import { listServers } from "@/lib/servers/service";\n')).toHaveLength(1);
    expect(compositionViolations(route, 'import {\n  a,\n  b,\n} from "../../../lib/workspaces/service";\n')).toHaveLength(1);
    expect(compositionViolations(route, 'export { schema as body } from "@/lib/agent/chat-service";\n')).toHaveLength(1);
    expect(compositionViolations(route, "const db = getDb();\n")).toEqual([`${route} binds the database or the pool`]);
    expect(compositionViolations(route, "await appPool().closeServer(id);\n")).toHaveLength(1);
  });

  it("lets a route import the composition layer, the helpers and types", () => {
    const route = "app/api/things/route.ts";
    const allowed = [
      'import { requireWorkspace } from "@/lib/use-cases/caller";',
      'import { parseJson, route } from "@/lib/http";',
      'import { AppError } from "@/lib/errors";',
      'import type { ServerRecord } from "@/db/queries/servers";',
      'import type { Actor } from "@/lib/servers/service";',
      'import { thingBody } from "./schema";',
      'import { ChatView } from "@/app/_components/chat/chat-view";',
      'import { z } from "zod";',
    ];
    expect(compositionViolations(route, allowed.join("\n"))).toEqual([]);
  });

  it("flags a binding outside lib/use-cases/ and lib/runtime/", () => {
    expect(bindsOutsideComposition("lib/auth/session.ts", "const user = getUserById(getDb(), id);")).toBe(true);
    expect(bindsOutsideComposition("lib/apps/app-calls.ts", "const pool = appPool();")).toBe(true);
    expect(bindsOutsideComposition("lib/auth/session.ts", "export function requireUser(db: Db) {}")).toBe(false);
    expect(bindsOutsideComposition("lib/use-cases/caller.ts", "return userOver(getDb(), request);")).toBe(false);
    expect(bindsOutsideComposition("lib/runtime/engine.ts", "const pool = appPool();")).toBe(false);
  });
});
