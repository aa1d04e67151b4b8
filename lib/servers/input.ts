/**
 * The body of a server save, parsed at the boundary: the envelope by its zod schema, the name and
 * the config by the server config's own rules (lib/mcp/config.ts). The services then take typed
 * input and check only what needs the database (roles, names taken, stored secrets).
 */
import { z } from "zod";
import { AppError } from "../errors";
import { ConfigError, assertServerName, parseServerConfig, type ServerConfig } from "../mcp/config";

/** A server change as the services take it: what is present is already valid. */
export interface ServerInput {
  name?: string;
  config?: ServerConfig;
  /** Per-member keys (`headers.<name>`, `env.<name>`); that they name keys of the config is checked by the service. */
  memberKeys?: string[];
}

/** A new server: name and config are required. */
export type NewServerInput = ServerInput & { name: string; config: ServerConfig };

// The config's own errors become the API's field errors (`server.invalid_config` on `name` or on the
// key's path under `config`), thrown from the transform: the form and docs/errors.md name that code.
function asFieldError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ConfigError) {
      const { field, message } = error;
      throw new AppError("server.invalid_config", message, field === "name" ? "name" : field ? `config.${field}` : "config");
    }
    throw error;
  }
}

const envelope = z
  .object({ name: z.unknown().optional(), config: z.unknown().optional(), memberKeys: z.array(z.string()).max(50).optional() })
  .strict();

/** Body of `POST /api/servers` (and of an imported entry): `{name, config, memberKeys?}`. */
export const newServerSchema = envelope.transform((body): NewServerInput => {
  const name = asFieldError(() => assertServerName(body.name));
  const config = asFieldError(() => parseServerConfig(body.config ?? {}, name));
  return { name, config, memberKeys: body.memberKeys };
});

/** Body of `PATCH /api/servers/:id`: any of `name`, `config`, `memberKeys`. */
export const serverChangeSchema = envelope.transform((body): ServerInput => {
  const name = body.name === undefined ? undefined : asFieldError(() => assertServerName(body.name));
  const config = body.config === undefined ? undefined : asFieldError(() => parseServerConfig(body.config, name));
  return { name, config, memberKeys: body.memberKeys };
});

/**
 * Body of `POST /api/servers/test`: a config to try (with `serverId`, the saved server whose masked
 * secrets it keeps), the config parsed by its own schema (a bad key is `server.invalid_config`).
 */
export const connectionTestSchema = z
  .object({ name: z.string().max(48).optional(), config: z.record(z.string(), z.unknown()), serverId: z.string().min(1).optional() })
  .strict()
  .transform((body) => ({ ...body, config: parseServerConfig(body.config, body.name) }));
