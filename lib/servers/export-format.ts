/**
 * A workspace's servers written out as the command line's `mcp_servers:` document (YAML or JSON),
 * with every secret value (header and env values, the OAuth client secret, a URL with credentials
 * in it) replaced by an
 * `${input:…}` placeholder that an import asks for again (docs/workbench.md#import-and-export).
 */
import { stringify as toYaml } from "yaml";
import { URL_MASK } from "../redact";

/** The placeholder for one secret: `${input:<server>.<section>.<key>}`. */
export function secretPlaceholder(server: string, path: string): string {
  return `\${input:${server}.${path}}`;
}

/** One server as exported: its name and its config (secret values may be anything; they are replaced). */
export interface ExportableServer {
  name: string;
  config: Record<string, unknown>;
}

/** The config with each secret value replaced by its placeholder. */
export function withPlaceholders(server: ExportableServer): Record<string, unknown> {
  const config: Record<string, unknown> = structuredClone(server.config);
  // A URL stored with credentials in it is exported masked: the import asks for it again.
  if (typeof config.url === "string" && config.url.includes(URL_MASK)) config.url = secretPlaceholder(server.name, "url");
  for (const section of ["headers", "env"] as const) {
    const map = config[section] as Record<string, string> | undefined;
    if (!map) continue;
    config[section] = Object.fromEntries(Object.keys(map).map((key) => [key, secretPlaceholder(server.name, `${section}.${key}`)]));
  }
  const oauth = config.oauth as Record<string, unknown> | undefined;
  if (oauth?.client_secret !== undefined) config.oauth = { ...oauth, client_secret: secretPlaceholder(server.name, "oauth.client_secret") };
  return config;
}

/** The export document in `format`. */
export function exportServers(servers: ExportableServer[], format: "yaml" | "json"): string {
  const doc = { mcp_servers: Object.fromEntries(servers.map((server) => [server.name, withPlaceholders(server)])) };
  return format === "json" ? `${JSON.stringify(doc, null, 2)}\n` : toYaml(doc);
}
