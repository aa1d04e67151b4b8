/**
 * From a catalog entry's `server.json` to an ordinary server config (docs/catalog.md#adding-a-server):
 * the ways it can run (each remote, each package), the form fields each needs (URL variables,
 * headers, environment variables, package arguments: required, secret, choices, defaults), and the
 * config those values make. npm and pypi packages run as sandboxed stdio (`npx`, `uvx`); OCI, MCPB
 * and NuGet packages are listed with what they would need and are not runnable here.
 */
import { AppError } from "../errors";
import type { ServerConfigInput } from "../mcp/config";
import type { ServerJson, ServerJsonArgument, ServerJsonInput, ServerJsonKeyValue, ServerJsonPackage } from "./server-json";

/** One field of the generated form. `key` is what the values map uses. */
export interface EntryField {
  key: string;
  label: string;
  description: string | null;
  required: boolean;
  secret: boolean;
  choices: string[] | null;
  default: string | null;
  placeholder: string | null;
}

/** One way to run an entry: a remote or a package, runnable here or not (with why). */
export interface EntryOption {
  id: string;
  kind: "remote" | "package";
  label: string;
  runnable: boolean;
  /** Why it is not runnable, or what it needs (an instance administrator for stdio). */
  note: string | null;
  /** The exact launch line of a package (`npx -y pkg@1.2.3 --flag value`), values shown as `<name>`. */
  launch: string | null;
  stdio: boolean;
  fields: EntryField[];
}

const VARIABLE = /\{([A-Za-z0-9_.-]+)\}/g;

function field(key: string, label: string, input: ServerJsonInput): EntryField {
  return {
    key,
    label,
    description: input.description ?? null,
    required: input.isRequired === true,
    secret: input.isSecret === true,
    choices: input.choices?.length ? input.choices : null,
    default: input.default ?? null,
    placeholder: input.placeholder ?? null,
  };
}

// A key-value input (header, env variable): with a fixed `value` holding `{variables}`, one field per
// variable; with a fixed value and no variables, no field; otherwise one field for the whole value.
function keyValueFields(prefix: string, item: ServerJsonKeyValue): EntryField[] {
  if (item.value !== undefined) {
    const names = [...item.value.matchAll(VARIABLE)].map((m) => m[1]);
    return names.map((name) =>
      field(`${prefix}.${item.name}.${name}`, `${item.name}: ${name}`, item.variables?.[name] ?? { isRequired: true }),
    );
  }
  return [field(`${prefix}.${item.name}`, item.name, item)];
}

function argumentFields(args: ServerJsonArgument[] | undefined): EntryField[] {
  return (args ?? []).flatMap((arg, i) => {
    if (arg.value !== undefined) return [];
    const label = arg.type === "named" ? arg.name : (arg.valueHint ?? `argument ${i + 1}`);
    return [field(`arg.${i}`, label, arg)];
  });
}

const PACKAGE_RUNNERS: Record<string, { command: string; spec: (pkg: ServerJsonPackage) => string[] }> = {
  npm: { command: "npx", spec: (pkg) => ["-y", pkg.version ? `${pkg.identifier}@${pkg.version}` : pkg.identifier] },
  pypi: { command: "uvx", spec: (pkg) => [pkg.version ? `${pkg.identifier}==${pkg.version}` : pkg.identifier] },
};

const NOT_RUNNABLE: Record<string, string> = {
  oci: "An OCI image needs a container runtime (docker or podman run), which this instance does not start.",
  mcpb: "An MCPB bundle is downloaded and unpacked (checked against its fileSha256); this instance does not run bundles.",
  nuget: "A NuGet package needs the .NET tool runner (dnx), which this instance does not start.",
};

function substitute(template: string, lookup: (name: string) => string | undefined): string {
  return template.replace(VARIABLE, (whole, name: string) => lookup(name) ?? whole);
}

function argv(args: ServerJsonArgument[] | undefined, fieldValue: (i: number, arg: ServerJsonArgument) => string | undefined): string[] {
  return (args ?? []).flatMap((arg, i) => {
    const value = arg.value !== undefined ? substitute(arg.value, (name) => arg.variables?.[name]?.default) : fieldValue(i, arg);
    if (value === undefined || value === "") return [];
    return arg.type === "named" ? [arg.name, value] : [value];
  });
}

/** The ways an entry can run, each with its form fields. */
export function entryOptions(server: ServerJson): EntryOption[] {
  const remotes = (server.remotes ?? []).map(
    (remote, i): EntryOption => ({
      id: `remote.${i}`,
      kind: "remote",
      label: `${remote.type === "sse" ? "SSE" : "Streamable HTTP"}: ${remote.url}`,
      runnable: true,
      note: null,
      launch: null,
      stdio: false,
      fields: [
        ...Object.entries(remote.variables ?? {}).map(([name, input]) => field(`url.${name}`, name, input)),
        ...(remote.headers ?? []).flatMap((h) => keyValueFields("header", h)),
      ],
    }),
  );
  const packages = (server.packages ?? []).map((pkg, i): EntryOption => {
    const runner = PACKAGE_RUNNERS[pkg.registryType];
    const stdio = pkg.transport.type === "stdio";
    const runnable = !!runner && stdio;
    const launch = runner
      ? [
          runner.command,
          ...runner.spec(pkg),
          ...argv(
            pkg.packageArguments,
            (_i, arg) => `<${arg.type === "named" ? arg.name.replace(/^-+/, "") : (arg.valueHint ?? "value")}>`,
          ),
        ].join(" ")
      : null;
    return {
      id: `package.${i}`,
      kind: "package",
      label: `${pkg.registryType}: ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ""}`,
      runnable,
      note: !runner
        ? (NOT_RUNNABLE[pkg.registryType] ?? "Not runnable here.")
        : !stdio
          ? "This package serves HTTP itself; only stdio packages are started here."
          : "Runs on this host in the sandbox: instance administrators only.",
      launch,
      stdio,
      fields: [...(pkg.environmentVariables ?? []).flatMap((env) => keyValueFields("env", env)), ...argumentFields(pkg.packageArguments)],
    };
  });
  return [...remotes, ...packages];
}

/** What the Add form sends: the option, the values by field key, and whose credentials calls use. */
export interface EntryAddition {
  option: string;
  values: Record<string, string>;
  credentials: "per_member" | "shared";
}

function fieldValue(fields: EntryField[], values: Record<string, string>, key: string): string | undefined {
  const given = values[key];
  if (given !== undefined && given !== "") return given;
  return fields.find((f) => f.key === key)?.default ?? undefined;
}

function checkValues(fields: EntryField[], values: Record<string, string>): void {
  for (const f of fields) {
    const value = fieldValue(fields, values, f.key);
    if (f.required && !value) throw new AppError("request.invalid", `${f.label} is required.`, `values.${f.key}`);
    if (value && f.choices && !f.choices.includes(value))
      throw new AppError("request.invalid", `${f.label} must be one of ${f.choices.join(", ")}.`, `values.${f.key}`);
  }
}

function keyValues(prefix: string, items: ServerJsonKeyValue[] | undefined, fields: EntryField[], values: Record<string, string>) {
  const out: Record<string, string> = {};
  const secret: string[] = [];
  for (const item of items ?? []) {
    const value =
      item.value !== undefined
        ? substitute(item.value, (name) => fieldValue(fields, values, `${prefix}.${item.name}.${name}`))
        : fieldValue(fields, values, `${prefix}.${item.name}`);
    if (value === undefined || value === "" || VARIABLE.test(value)) {
      VARIABLE.lastIndex = 0;
      continue;
    }
    out[item.name] = value;
    if (item.isSecret || Object.values(item.variables ?? {}).some((v) => v.isSecret)) secret.push(item.name);
  }
  return { out, secret };
}

/**
 * The server config an entry's option makes with these values (checked: required fields, choices),
 * and the per-member keys: with `per_member` credentials each secret header or variable is filled by
 * every member with their own value (the adder's value stays as the config's).
 */
export function configFromEntry(server: ServerJson, addition: EntryAddition): { config: ServerConfigInput; memberKeys: string[] } {
  const option = entryOptions(server).find((o) => o.id === addition.option);
  if (!option) throw new AppError("request.invalid", "This entry has no such way to run.", "option");
  if (!option.runnable) throw new AppError("request.invalid", option.note ?? "Not runnable here.", "option");
  checkValues(option.fields, addition.values);
  const index = Number(option.id.split(".")[1]);
  const credentials = addition.credentials === "shared" ? { credentials: "shared" as const } : {};
  if (option.kind === "remote") {
    const remote = server.remotes![index];
    const url = substitute(remote.url, (name) => fieldValue(option.fields, addition.values, `url.${name}`));
    const headers = keyValues("header", remote.headers, option.fields, addition.values);
    const config: ServerConfigInput = { url, ...(Object.keys(headers.out).length ? { headers: headers.out } : {}), ...credentials };
    return { config, memberKeys: addition.credentials === "per_member" ? headers.secret.map((h) => `headers.${h}`) : [] };
  }
  const pkg = server.packages![index];
  const runner = PACKAGE_RUNNERS[pkg.registryType];
  const env = keyValues("env", pkg.environmentVariables, option.fields, addition.values);
  const args = [...runner.spec(pkg), ...argv(pkg.packageArguments, (i) => fieldValue(option.fields, addition.values, `arg.${i}`))];
  const config: ServerConfigInput = {
    command: runner.command,
    args,
    ...(Object.keys(env.out).length ? { env: env.out } : {}),
    ...credentials,
  };
  return { config, memberKeys: addition.credentials === "per_member" ? env.secret.map((e) => `env.${e}`) : [] };
}
