/**
 * `switchboard` commands: list, call, resources, read, prompts, prompt, conformance, import, export and
 * db (lib/cli/db.ts). Exit codes:
 * 0 success, 1 the tool reported an error, 2 a usage, config or connection problem.
 */
import fs from "node:fs";
import path from "node:path";
import { ConfigError, EngineError, McpPool, parseServersYaml, type ServerDefinition } from "../mcp";
import { redact } from "../redact";
import { UsageError, jsonArguments, parseArgv, parseKeyValues, splitTarget } from "./args";
import { runConformance } from "./conformance";
import { createSandboxWrapper } from "../mcp/sandbox";
import { closeOnSignals } from "../shutdown";
import { exportCommand, importCommand } from "./import-export";
import { DB_USAGE, dbCommand } from "./db";

const USAGE = `usage: switchboard <command> [--config FILE]
  list [server]                              servers, their state and registered tool names
  call <server>.<tool> [key=value ...] [--json '{...}']
  resources <server>                         list resources and resource templates
  read <server> <uri>                        read one resource
  prompts <server>                           list prompts
  prompt <server> <name> [key=value ...]     get a prompt
  conformance <url>                          run as the MCP conformance suite's client
  import <file> [--write [--allow-stdio]] [--inputs '{"id":"value"}']
                                             Claude Desktop / Cursor / VS Code / mcp_servers servers into the config
  export [--format yaml|json]                the config's servers, secret values as \${input:…} placeholders
${DB_USAGE}
Options: --sandbox runs stdio servers in the bubblewrap sandbox (homes under --data-dir, default
./.switchboard), as the web app does. The config (default ./switchboard.yaml) is YAML with a
top-level mcp_servers: map.`;

/** Exit codes of the command line. */
export const EXIT = { ok: 0, toolError: 1, failure: 2 } as const;

type Output = { out: (text: string) => void; err: (text: string) => void };
const stdio: Output = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) };

// The CLI runs as the local user on their own machine: one local "user", loopback URLs allowed.
const LOCAL_USER = "local";

function readConfig(configPath: string): string {
  try {
    return fs.readFileSync(configPath, "utf8");
  } catch {
    throw new UsageError(`cannot read the config file ${configPath} (pass --config FILE)`);
  }
}

function loadServers(configPath: string): ServerDefinition[] {
  return parseServersYaml(readConfig(configPath));
}

function findServer(servers: ServerDefinition[], name: string | undefined): ServerDefinition {
  if (!name) throw new UsageError("name a server");
  const server = servers.find((s) => s.name === name);
  if (!server) throw new UsageError(`no server named "${name}" in the config (have: ${servers.map((s) => s.name).join(", ") || "none"})`);
  return server;
}

const print = (io: Output, value: unknown) => io.out(JSON.stringify(value, null, 2));

/**
 * The CLI's pool: unsandboxed by default (the local user's own machine), or with `--sandbox` as
 * the web app runs stdio servers. `projectRoot`'s node_modules is shared read-only into sandboxes.
 */
function poolFor(flags: Record<string, string>, projectRoot: string): McpPool {
  if (flags.sandbox !== "true") return new McpPool();
  const dataDir = path.resolve(flags["data-dir"] ?? ".switchboard");
  return new McpPool({ launchWrapper: createSandboxWrapper({ dataDir, projectRoot }) });
}

/** Run one command; returns the exit code. `projectRoot` is the Switchboard install (bin/ passes it). */
export async function main(argv: string[], io: Output = stdio, projectRoot = process.cwd()): Promise<number> {
  let pool: McpPool | undefined;
  try {
    const { positional, flags } = parseArgv(argv);
    pool = poolFor(flags, projectRoot);
    const opened = pool;
    // Ctrl-C during a call must not leave a stdio server (or its sandbox) behind.
    closeOnSignals(() => opened.closeAll());
    const [command, ...rest] = positional;
    if (!command || flags.help) {
      io.out(USAGE);
      return command ? EXIT.ok : EXIT.failure;
    }
    if (command === "conformance") {
      if (!rest[0]) throw new UsageError("conformance needs the server URL");
      return await runConformance(rest[rest.length - 1]);
    }
    if (command === "db") return await dbCommand(rest, flags, io, projectRoot);
    const configPath = path.resolve(flags.config ?? "switchboard.yaml");
    if (command === "import") return importCommand(rest[0], flags, configPath, io);
    if (command === "export") return exportCommand(flags, readConfig(configPath), io);
    const servers = loadServers(configPath);
    switch (command) {
      case "list":
        return await list(pool, servers, rest[0], io);
      case "call":
        return await call(pool, servers, rest, flags, io);
      case "resources": {
        const server = findServer(servers, rest[0]);
        await pool.discover(LOCAL_USER, [server]);
        const [resources, resourceTemplates] = [
          await pool.session(LOCAL_USER, server).listResources(),
          await pool.session(LOCAL_USER, server).listResourceTemplates(),
        ];
        print(io, { resources, resourceTemplates });
        return EXIT.ok;
      }
      case "read": {
        const server = findServer(servers, rest[0]);
        if (!rest[1]) throw new UsageError("read needs a resource URI");
        print(io, await pool.session(LOCAL_USER, server).readResource(rest[1]));
        return EXIT.ok;
      }
      case "prompts": {
        const server = findServer(servers, rest[0]);
        await pool.discover(LOCAL_USER, [server]);
        print(io, await pool.session(LOCAL_USER, server).listPrompts());
        return EXIT.ok;
      }
      case "prompt": {
        const server = findServer(servers, rest[0]);
        if (!rest[1]) throw new UsageError("prompt needs a prompt name");
        const args = Object.fromEntries(
          Object.entries(parseKeyValues(rest.slice(2))).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
        );
        print(io, await pool.session(LOCAL_USER, server).getPrompt(rest[1], args));
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof EngineError) {
      io.err(`switchboard: ${redact(error.message)}`);
      return EXIT.failure;
    }
    io.err(`switchboard: ${redact(error instanceof Error ? error.message : String(error))}`);
    return EXIT.failure;
  } finally {
    await pool?.closeAll();
  }
}

async function list(pool: McpPool, servers: ServerDefinition[], only: string | undefined, io: Output): Promise<number> {
  const chosen = only ? [findServer(servers, only)] : servers;
  const statuses = await pool.discover(LOCAL_USER, chosen);
  const tools = chosen.length ? await pool.toolset(LOCAL_USER, chosen) : [];
  for (const status of statuses) {
    io.out(`${status.serverName}  ${status.state}${status.lastError ? `  (${status.lastError.message})` : ""}`);
    for (const tool of tools.filter((t) => t.serverId === status.serverId)) io.out(`  ${tool.name}`);
  }
  return statuses.some((s) => s.state === "failed" || s.state === "needs_authorization") ? EXIT.failure : EXIT.ok;
}

async function call(
  pool: McpPool,
  servers: ServerDefinition[],
  rest: string[],
  flags: Record<string, string>,
  io: Output,
): Promise<number> {
  const target = splitTarget(rest[0]);
  const server = findServer(servers, target.server);
  const [status] = await pool.discover(LOCAL_USER, [server]);
  if (status.state !== "connected") {
    io.err(`switchboard: server "${server.name}" is ${status.state}${status.lastError ? `: ${status.lastError.message}` : ""}`);
    return EXIT.failure;
  }
  const tool = (await pool.session(LOCAL_USER, server).listTools()).find((t) => t.kind === "tool" && t.rawName === target.tool);
  const args = { ...jsonArguments(flags.json), ...parseKeyValues(rest.slice(1), tool?.inputSchema as never) };
  const outcome = await pool.session(LOCAL_USER, server).callTool(target.tool, args);
  print(io, outcome.forModel);
  if (!outcome.isError) return EXIT.ok;
  // The tool itself said no (isError): 1. The engine could not get an answer (timeout, drop): 2.
  return outcome.errorCode && outcome.errorCode !== "not_found" ? EXIT.failure : EXIT.toolError;
}
