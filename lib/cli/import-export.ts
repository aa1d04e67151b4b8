/**
 * `switchboard import FILE` and `switchboard export`: the web app's import and export on the
 * command line's YAML config. Import prints each entry with its validation result (a stdio entry
 * with its exact command line) and, with `--write`, adds the valid ones to the config file; a stdio
 * entry is added only with `--allow-stdio`, the person's explicit consent to run that command.
 */
import fs from "node:fs";
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { parseServersYaml } from "../mcp";
import { exportServers } from "../servers/export-format";
import { ImportError, parseImport } from "../servers/import-formats";
import { UsageError } from "./args";

type Output = { out: (text: string) => void; err: (text: string) => void };

/** `--inputs '{"id": "value"}'`: values for `${input:id}` references. */
function inputsOf(flag: string | undefined): Record<string, string> {
  if (!flag) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(flag);
  } catch {
    throw new UsageError("--inputs must be a JSON object of input id to value");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== "string")) {
    throw new UsageError("--inputs must be a JSON object of input id to string value");
  }
  return parsed as Record<string, string>;
}

/** Run `import`; returns the exit code (2 when any entry was refused or nothing could be read). */
export function importCommand(file: string | undefined, flags: Record<string, string>, configPath: string, io: Output): number {
  if (!file) throw new UsageError("import needs a file (Claude Desktop / Cursor / VS Code JSON, or mcp_servers YAML)");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  let preview: ReturnType<typeof parseImport>;
  try {
    preview = parseImport(text, inputsOf(flags.inputs));
  } catch (error) {
    if (error instanceof ImportError) throw new UsageError(error.message);
    throw error;
  }
  const existing = fs.existsSync(configPath) ? parseServersYaml(fs.readFileSync(configPath, "utf8")).map((s) => s.name) : [];
  const accepted: Record<string, unknown> = {};
  let refused = 0;
  for (const entry of preview.servers) {
    const problem = !entry.valid
      ? entry.error
      : existing.includes(entry.name)
        ? `a server named "${entry.name}" is already in ${configPath}`
        : entry.needsConsent && flags.write === "true" && flags["allow-stdio"] !== "true"
          ? "runs a local command: add --allow-stdio to consent"
          : undefined;
    const launch = entry.needsConsent ? `  runs: ${[entry.config.command, ...((entry.config.args as string[]) ?? [])].join(" ")}` : "";
    io.err(`${entry.name}  ${problem ? `refused: ${problem}` : "ok"}${launch}`);
    if (problem) refused++;
    else accepted[entry.name] = entry.config;
  }
  if (flags.write !== "true") {
    io.out(toYaml({ mcp_servers: accepted }));
    return refused ? 2 : 0;
  }
  const doc = fs.existsSync(configPath) ? ((parseYaml(fs.readFileSync(configPath, "utf8")) as Record<string, unknown>) ?? {}) : {};
  doc.mcp_servers = { ...((doc.mcp_servers as Record<string, unknown>) ?? {}), ...accepted };
  fs.writeFileSync(configPath, toYaml(doc));
  io.err(`added ${Object.keys(accepted).length} server(s) to ${configPath}`);
  return refused ? 2 : 0;
}

/** Run `export`: the config's servers with secret values replaced by `${input:…}` placeholders. */
export function exportCommand(flags: Record<string, string>, configText: string, io: Output): number {
  const format = flags.format ?? "yaml";
  if (format !== "yaml" && format !== "json") throw new UsageError("--format is yaml or json");
  io.out(
    exportServers(
      parseServersYaml(configText).map((s) => ({ name: s.name, config: s.config as Record<string, unknown> })),
      format,
    ).trimEnd(),
  );
  return 0;
}
