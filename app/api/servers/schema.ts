/**
 * Body of `POST /api/servers`: `{name, config, memberKeys?}`, the config parsed by its own schema
 * (lib/mcp/config.ts); a bad name or key is `server.invalid_config` naming it.
 */
export { newServerSchema as serverBody } from "@/lib/use-cases/saved-servers";
