/**
 * Updating a server added from the catalog (docs/catalog.md#updates). When its entry's current
 * version (the pinned one, else the latest) is not the one it was added from, the new version makes
 * a config from the same values, read back from the server's config through the old version's
 * templates, and the update lists which fields change. Applying it is an ordinary edit.
 */
import { z } from "zod";
import type { Db } from "../../db/client";
import { listEntryVersions } from "../../db/queries/catalog";
import { readServerSecrets, type ServerRecord } from "../../db/queries/servers";
import { mergeSecrets, SECRET_MASK } from "../../db/server-secrets";
import { AppError } from "../errors";
import type { ServerConfig } from "../mcp/config";
import { maskUrlSecrets } from "../redact";
import { credentialModeOf } from "../servers/credential-mode";
import { newServerSchema, type ServerInput } from "../servers/input";
import { currentVersion } from "./entries";
import { configFromEntry, type EntryOption, entryOptions } from "./entry-form";
import type { ServerJson, ServerJsonArgument, ServerJsonKeyValue } from "./server-json";
import { type CatalogCaller, visibleEntries } from "./workspace-catalog";

/** Body of applying an update: the version on offer (so a newer one arriving meanwhile is not applied unseen). */
export const catalogUpdateSchema = z.object({ version: z.string().min(1).max(255) }).strict();

/** One field the update changes. Header and environment values are secrets here: never shown. */
export interface ConfigChange {
  field: string;
  change: "added" | "removed" | "changed";
  from: string | null;
  to: string | null;
}

/** An update on offer: from which version to which, what changes, or why it cannot be applied as is. */
export interface CatalogUpdate {
  entryId: string;
  entryName: string;
  from: string | null;
  to: string;
  changes: ConfigChange[];
  /** Why the new version cannot make this server's config (a new required field, a way to run gone); null when it can. */
  problem: string | null;
}

const VARIABLE = /\{([A-Za-z0-9_.-]+)\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The `{variables}` of `template` as they stand in `value`, or null when the value does not fit the template. */
export function readTemplate(template: string, value: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(VARIABLE)
    .map((part, i) => {
      if (i % 2 === 0) return escapeRegExp(part);
      names.push(part);
      return "(.*?)";
    })
    .join("");
  const match = new RegExp(`^${pattern}$`, "s").exec(value);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1]]));
}

function keyValueValues(prefix: string, items: ServerJsonKeyValue[] | undefined, map: Record<string, string> | undefined) {
  const values: Record<string, string> = {};
  for (const item of items ?? []) {
    const current = map?.[item.name];
    if (current === undefined) continue;
    if (item.value === undefined) values[`${prefix}.${item.name}`] = current;
    else
      for (const [name, value] of Object.entries(readTemplate(item.value, current) ?? {})) values[`${prefix}.${item.name}.${name}`] = value;
  }
  return values;
}

// Package arguments after the runner's package spec, walked in the order `configFromEntry` wrote
// them (an optional argument left empty was not written).
function argumentValues(args: ServerJsonArgument[] | undefined, argv: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  let at = 0;
  (args ?? []).forEach((arg, i) => {
    if (arg.type === "named") {
      if (argv[at] !== arg.name) return;
      if (arg.value === undefined && argv[at + 1] !== undefined) values[`arg.${i}`] = argv[at + 1];
      at += 2;
    } else if (at < argv.length) {
      if (arg.value === undefined) values[`arg.${i}`] = argv[at];
      at += 1;
    }
  });
  return values;
}

/**
 * Which way to run of `server` made `config`, and the form's values read back from it: a remote
 * whose URL template fits the URL, or the package the command launches. Null when none fits (the
 * server was edited by hand past recognition).
 */
export function valuesFromConfig(server: ServerJson, config: ServerConfig): { option: EntryOption; values: Record<string, string> } | null {
  for (const option of entryOptions(server).filter((o) => o.runnable)) {
    const index = Number(option.id.split(".")[1]);
    if (option.kind === "remote" && config.url) {
      const remote = server.remotes![index];
      const url = readTemplate(remote.url, config.url);
      if (!url) continue;
      const values = Object.fromEntries(Object.entries(url).map(([name, value]) => [`url.${name}`, value]));
      return { option, values: { ...values, ...keyValueValues("header", remote.headers, config.headers) } };
    }
    if (option.kind === "package" && config.command && option.launch?.startsWith(`${config.command} `)) {
      const pkg = server.packages![index];
      const spec = option.launch.split(" ").slice(1, pkg.registryType === "npm" ? 3 : 2);
      const args = config.args ?? [];
      if (spec.some((part, i) => args[i] !== part)) continue;
      return {
        option,
        values: {
          ...keyValueValues("env", pkg.environmentVariables, config.env),
          ...argumentValues(pkg.packageArguments, args.slice(spec.length)),
        },
      };
    }
  }
  return null;
}

// The fields an entry generates; everything else in a config (OAuth, tool filters, timeouts) is the
// workspace's own and an update keeps it.
const GENERATED = ["url", "headers", "command", "args", "env"] as const;

/** What changes from `before` to `after` in the fields an entry generates; header and env values are never shown. */
export function configDiff(before: ServerConfig, after: ServerConfig): ConfigChange[] {
  const changes: ConfigChange[] = [];
  const scalar = (field: string, from: string | null, to: string | null) => {
    if (from === to) return;
    changes.push({ field, change: from === null ? "added" : to === null ? "removed" : "changed", from, to });
  };
  scalar("url", before.url ? maskUrlSecrets(before.url) : null, after.url ? maskUrlSecrets(after.url) : null);
  scalar("command", before.command ?? null, after.command ?? null);
  scalar("args", before.args ? before.args.join(" ") : null, after.args ? after.args.join(" ") : null);
  for (const section of ["headers", "env"] as const) {
    const from = before[section] ?? {};
    const to = after[section] ?? {};
    for (const key of [...new Set([...Object.keys(from), ...Object.keys(to)])].sort()) {
      if (from[key] === to[key]) continue;
      const change = from[key] === undefined ? "added" : to[key] === undefined ? "removed" : "changed";
      changes.push({
        field: `${section}.${key}`,
        change,
        from: from[key] === undefined ? null : SECRET_MASK,
        to: to[key] === undefined ? null : SECRET_MASK,
      });
    }
  }
  return changes;
}

/** The update's new config and per-member keys, with the current config (secrets in clear: never for a response). */
interface Planned {
  update: CatalogUpdate;
  config: ServerConfig | null;
  memberKeys: string[];
  current: ServerConfig;
}

/**
 * The update on offer for a server of the caller's workspace, or null: not from the catalog, its
 * entry gone or no longer shown to the workspace, or already on the entry's current version.
 */
export async function planCatalogUpdate(db: Db, caller: CatalogCaller, server: ServerRecord): Promise<Planned | null> {
  if (!server.catalogEntryId) return null;
  const entry = (await visibleEntries(db, caller)).find((e) => e.id === server.catalogEntryId);
  if (!entry) return null;
  const versions = await listEntryVersions(db, entry.id);
  const target = currentVersion(entry, versions);
  if (!target || target.version === server.catalogVersion) return null;
  const current = mergeSecrets(server.config, await readServerSecrets(db, server));
  const base = { entryId: entry.id, entryName: entry.name, from: server.catalogVersion, to: target.version };
  const refuse = (problem: string): Planned => ({ update: { ...base, changes: [], problem }, config: null, memberKeys: [], current });
  const old = versions.find((v) => v.version === server.catalogVersion);
  const read = old ? valuesFromConfig(old.serverJson as ServerJson, current) : null;
  if (!read)
    return refuse("This server's config no longer matches the catalog version it came from: add the new version from the catalog.");
  const next = entryOptions(target.serverJson as ServerJson).find((o) => o.id === read.option.id);
  if (!next?.runnable || next.kind !== read.option.kind)
    return refuse(`Version ${target.version} no longer offers ${read.option.label}: add it again from the catalog.`);
  const made = remake(target.serverJson as ServerJson, next.id, read.values, current, server.name);
  if ("problem" in made) return refuse(`Version ${target.version} needs more than this server has: ${made.problem}`);
  return { update: { ...base, changes: configDiff(current, made.config), problem: null }, ...made, current };
}

// The config the new version makes with these values, keeping what the entry does not generate; a
// value it refuses (a new required field, a choice no longer offered) is the problem.
function remake(
  server: ServerJson,
  option: string,
  values: Record<string, string>,
  current: ServerConfig,
  name: string,
): { config: ServerConfig; memberKeys: string[] } | { problem: string } {
  const kept = Object.fromEntries(Object.entries(current).filter(([key]) => !(GENERATED as readonly string[]).includes(key)));
  try {
    const made = configFromEntry(server, { option, values, credentials: credentialModeOf(current) });
    return { config: newServerSchema.parse({ name, config: { ...kept, ...made.config } }).config, memberKeys: made.memberKeys };
  } catch (error) {
    if (error instanceof AppError) return { problem: error.message };
    throw error;
  }
}

/**
 * The edit that applies the update to `version` (the one on offer, else `catalog.version_not_found`;
 * one the new version cannot make is `request.invalid` with why). Saved through `changeServer`.
 */
export async function catalogUpdateEdit(db: Db, caller: CatalogCaller, server: ServerRecord, version: string): Promise<ServerInput> {
  const plan = await planCatalogUpdate(db, caller, server);
  if (!plan || plan.update.to !== version)
    throw new AppError("catalog.version_not_found", `No update to version ${version} is on offer for this server.`, "version");
  if (plan.update.problem || !plan.config)
    throw new AppError("request.invalid", plan.update.problem ?? "The update cannot be applied.", "version");
  return { config: asEdit(plan.config, plan.current), memberKeys: plan.memberKeys };
}

/**
 * The new config as an edit by hand would send it: each header or env value still equal to the
 * stored one goes back as the mask, so the edit's rules apply (a stored secret never follows the
 * server to another origin; a changed secret needs a recent sign-in).
 */
export function asEdit(config: ServerConfig, current: ServerConfig): ServerConfig {
  const edit: ServerConfig = { ...config };
  for (const section of ["headers", "env"] as const) {
    const map = config[section];
    if (!map) continue;
    edit[section] = Object.fromEntries(
      Object.entries(map).map(([key, value]) => [key, current[section]?.[key] === value ? SECRET_MASK : value]),
    );
  }
  return edit;
}
