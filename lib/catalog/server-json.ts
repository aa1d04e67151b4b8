/**
 * The `server.json` format of the MCP Registry (schema 2025-12-11, field names as published in
 * docs/reference/server-json of modelcontextprotocol/registry), validated with zod. Unknown keys are
 * kept (the format is additive); a wrong field becomes one `{field, message}` per problem.
 */
import { z } from "zod";

/** The schema URL of the version this module follows. */
export const SERVER_JSON_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

const inputShape = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(["string", "number", "boolean", "filepath"]).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};

/** One input (a header, a variable, an environment variable, an argument's value). */
const inputSchema = z.looseObject(inputShape);
/** An input whose `value` may hold `{name}` variables. */
const withVariables = { ...inputShape, variables: z.record(z.string(), inputSchema).optional() };

/** A header or environment variable: `name` plus an input. */
export const keyValueInputSchema = z.looseObject({ ...withVariables, name: z.string().min(1) });

const positionalSchema = z
  .looseObject({ ...withVariables, type: z.literal("positional"), valueHint: z.string().optional(), isRepeated: z.boolean().optional() })
  .refine((arg) => arg.valueHint !== undefined || arg.value !== undefined, {
    message: "a positional argument needs `valueHint` or `value`",
    path: ["valueHint"],
  });
const namedSchema = z.looseObject({
  ...withVariables,
  type: z.literal("named"),
  name: z.string().min(1),
  isRepeated: z.boolean().optional(),
});

/** A command-line argument: positional or `--name value`. */
export const argumentSchema = z.discriminatedUnion("type", [positionalSchema, namedSchema]);

const remoteTransport = (type: "streamable-http" | "sse") =>
  z.looseObject({
    type: z.literal(type),
    url: z.string().min(1),
    headers: z.array(keyValueInputSchema).optional(),
    variables: z.record(z.string(), inputSchema).optional(),
  });

/** A remote endpoint: streamable HTTP or SSE, its URL a template over `variables`. */
export const remoteSchema = z.discriminatedUnion("type", [remoteTransport("streamable-http"), remoteTransport("sse")]);

const packageTransport = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("stdio") }),
  remoteTransport("streamable-http"),
  remoteTransport("sse"),
]);

/** A package to run: its registry type says how (npm, pypi, nuget, oci, mcpb). */
export const packageSchema = z
  .looseObject({
    registryType: z.enum(["npm", "pypi", "nuget", "oci", "mcpb"]),
    registryBaseUrl: z.url().optional(),
    identifier: z.string().min(1),
    version: z
      .string()
      .min(1)
      .refine((v) => v !== "latest", "must be a specific version, not `latest`")
      .optional(),
    fileSha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/, "must be 64 lowercase hex digits")
      .optional(),
    runtimeHint: z.string().optional(),
    transport: packageTransport,
    runtimeArguments: z.array(argumentSchema).optional(),
    packageArguments: z.array(argumentSchema).optional(),
    environmentVariables: z.array(keyValueInputSchema).optional(),
  })
  .refine((pkg) => pkg.registryType !== "mcpb" || pkg.fileSha256 !== undefined, {
    message: "an `mcpb` package needs `fileSha256`",
    path: ["fileSha256"],
  });

/** A `server.json` document. */
export const serverJsonSchema = z.looseObject({
  $schema: z.string().optional(),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, "must be reverse-DNS `namespace/name` with exactly one slash"),
  description: z.string().min(1).max(100),
  title: z.string().min(1).max(100).optional(),
  version: z
    .string()
    .min(1)
    .max(255)
    .refine((v) => v !== "latest" && !/^[\^~><=]|\.[x*](\.|$)/.test(v), "must be one exact version, not a range or `latest`"),
  websiteUrl: z.url().optional(),
  repository: z
    .looseObject({ url: z.string(), source: z.string(), id: z.string().optional(), subfolder: z.string().optional() })
    .optional(),
  icons: z.array(z.looseObject({ src: z.string(), mimeType: z.string().optional(), sizes: z.array(z.string()).optional() })).optional(),
  packages: z.array(packageSchema).optional(),
  remotes: z.array(remoteSchema).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/** A validated `server.json`. */
export type ServerJson = z.infer<typeof serverJsonSchema>;
/** One package of a `server.json`. */
export type ServerJsonPackage = z.infer<typeof packageSchema>;
/** One remote of a `server.json`. */
export type ServerJsonRemote = z.infer<typeof remoteSchema>;
/** One input of a `server.json` (header, env variable, URL variable). */
export type ServerJsonInput = z.infer<typeof inputSchema>;
/** A header or environment variable. */
export type ServerJsonKeyValue = z.infer<typeof keyValueInputSchema>;
/** A package argument. */
export type ServerJsonArgument = z.infer<typeof argumentSchema>;

/** One problem of a `server.json`: the field's dot path (`packages.0.transport.type`) and what is wrong. */
export interface ServerJsonIssue {
  field: string;
  message: string;
}

/** Validate a `server.json`: the document, or every problem with its field. */
export function checkServerJson(value: unknown): { ok: true; server: ServerJson } | { ok: false; issues: ServerJsonIssue[] } {
  const parsed = serverJsonSchema.safeParse(value);
  if (parsed.success) return { ok: true, server: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    field: issue.path.map(String).join(".") || "(document)",
    message: issue.code === "invalid_union" ? "does not match any allowed shape (check `type`)" : issue.message,
  }));
  return { ok: false, issues };
}
