/**
 * Import and export behind `/api/servers/import` and `/api/servers/export`: a preview that saves
 * nothing (secrets masked, stdio entries with their exact launch for consent, refused to anyone but
 * an instance administrator), then the confirmed entries created through `addServer` (roles,
 * quotas, audit), and the workspace's servers written out with placeholders for secrets.
 */
import type { Db } from "../../db/client";
import { listServersByWorkspace, serverNameTaken } from "../../db/queries/servers";
import { splitSecrets } from "../../db/server-secrets";
import { maskUrlSecrets } from "../redact";
import { environment, sandboxMode } from "../env";
import { AppError } from "../errors";
import type { ServerConfig } from "../mcp/config";
import { describeLaunch, sandboxLimitsFromEnv } from "../mcp/sandbox";
import { exportServers } from "./export-format";
import { ImportError, parseImport, type ImportEntry } from "./import-formats";
import { newServerSchema } from "./input";
import { addServer, type Actor } from "./service";

/** Body of `POST /api/servers/import`. */
export interface ImportRequest {
  text: string;
  /** Values for `${input:id}` references (VS Code inputs, an export's secret placeholders). */
  inputs?: Record<string, string>;
  /** Names to save; absent = preview only. */
  confirm?: string[];
}

/** One entry as the preview shows it: masked, with the launch line of a stdio entry. */
export type ImportPreviewEntry = Omit<ImportEntry, "config"> & { config: Record<string, unknown>; launch: string | null };

function read(text: string, inputs: Record<string, string> | undefined) {
  try {
    return parseImport(text, inputs);
  } catch (error) {
    if (error instanceof ImportError) throw new AppError("server.import_invalid", error.message, "text");
    throw error;
  }
}

/** Why an entry cannot be saved by this actor in this workspace, or undefined. */
async function refusal(db: Db, actor: Actor, entry: ImportEntry): Promise<string | undefined> {
  if (!entry.valid) return entry.error;
  if (entry.needsConsent && !actor.isAdmin) return `server "${entry.name}": only instance administrators can add stdio (command) servers`;
  if (await serverNameTaken(db, actor.workspaceId, entry.name))
    return `server "${entry.name}": a server with this name already exists here`;
  return undefined;
}

/** The preview: every entry with its validation result for this actor; nothing is saved. */
export async function previewImport(
  db: Db,
  actor: Actor,
  request: ImportRequest,
): Promise<{ format: string; servers: ImportPreviewEntry[] }> {
  const { format, servers } = read(request.text, request.inputs);
  return {
    format,
    servers: await Promise.all(
      servers.map(async (entry) => {
        const error = await refusal(db, actor, entry);
        const config = entry.valid
          ? (splitSecrets(entry.config as ServerConfig).masked as Record<string, unknown>)
          : maskLoose(entry.config);
        const launch =
          entry.valid && entry.needsConsent
            ? describeLaunch(entry.config as ServerConfig, { mode: sandboxMode(), limits: sandboxLimitsFromEnv(environment()) }).text
            : null;
        return { ...entry, config, launch, valid: error === undefined, ...(error ? { error } : {}) };
      }),
    ),
  };
}

/** Save the confirmed entries (all checked before the first is saved); returns the new ids. */
export async function confirmImport(db: Db, actor: Actor, request: ImportRequest & { confirm: string[] }): Promise<{ created: string[] }> {
  const { servers } = read(request.text, request.inputs);
  const chosen = await Promise.all(
    request.confirm.map(async (name) => {
      const entry = servers.find((s) => s.name === name);
      if (!entry) throw new AppError("request.invalid", `No server named "${name}" in the import.`, "confirm");
      const problem = await refusal(db, actor, entry);
      if (problem)
        throw new AppError(entry.needsConsent && !actor.isAdmin ? "auth.forbidden" : "server.invalid_config", problem, "confirm");
      return entry;
    }),
  );
  return {
    created: await Promise.all(
      chosen.map(async (entry) => (await addServer(db, actor, newServerSchema.parse({ name: entry.name, config: entry.config }))).id),
    ),
  };
}

/** The workspace's servers as an `mcp_servers:` document, secrets as placeholders. */
export async function exportWorkspaceServers(db: Db, actor: Actor, format: "yaml" | "json"): Promise<string> {
  return exportServers(
    (await listServersByWorkspace(db, actor.workspaceId)).map((record) => ({
      name: record.name,
      config: record.config as Record<string, unknown>,
    })),
    format,
  );
}

// An invalid entry is shown as written, with the values of its secret-bearing maps masked all the same.
function maskLoose(config: Record<string, unknown>): Record<string, unknown> {
  const out = { ...config };
  if (typeof out.url === "string") out.url = maskUrlSecrets(out.url, out.secret_url === true);
  for (const key of ["headers", "env"]) {
    const map = out[key];
    if (map && typeof map === "object" && !Array.isArray(map)) out[key] = Object.fromEntries(Object.keys(map).map((k) => [k, "********"]));
  }
  return out;
}
