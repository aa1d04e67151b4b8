/**
 * "Test connection" on the server form: the real connect and discovery of a config that is not
 * saved (or an edit of one that is), through the app's SSRF guard and sandbox, in a pool of its
 * own that is closed at once. The outcome is said in plain words; an address the guard refuses
 * names the setting an administrator changes (docs/workbench.md#test-connection).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { getDb } from "../../db/client";
import { assertFactorForStdio } from "../auth/mfa-policy";
import { readServerSecrets } from "../../db/queries/servers";
import { AppError } from "../errors";
import { type ServerConfig, transportOf } from "../mcp/config";
import { allowedHostsFromEnv, checkTarget, systemResolver } from "../net";
import { blockedMessage } from "../net/blocked-message";
import { BlockedRequestError } from "../net/errors";
import { getServer } from "../servers/lookup";
import { restoreMaskedSecrets } from "../servers/secrets";
import type { Actor } from "../servers/service";
import { isolatedPool } from "../runtime/engine";

export { connectionTestSchema } from "../servers/input";

/** What the form shows after a test. */
export interface ConnectionTestResult {
  ok: boolean;
  state: string;
  /** One plain sentence: what happened and, when it failed, what to change. */
  message: string;
  serverInfo: { name: string; version: string } | null;
  counts: { tools: number; resources: number; prompts: number } | null;
}

/** Test `config` (with `serverId`, masked secrets are the saved server's). Never saves or keeps anything. */
export async function testServerConnection(
  caller: Actor,
  body: { name?: string; config: ServerConfig; serverId?: string },
): Promise<ConnectionTestResult> {
  let config = body.config;
  if (transportOf(config) === "stdio" && !caller.isAdmin) {
    throw new AppError("auth.forbidden", "Only instance administrators can run stdio (command) servers.", "command");
  }
  // Testing a stdio config launches it on the host: the same second factor as saving one.
  if (transportOf(config) === "stdio") await assertFactorForStdio(getDb(), caller);
  if (body.serverId) {
    const record = await getServer(getDb(), caller, body.serverId);
    const restored = restoreMaskedSecrets(config, await readServerSecrets(getDb(), record));
    if (restored.missing)
      throw new AppError("server.invalid_config", `\`${restored.missing}\` is masked: type the value`, `config.${restored.missing}`);
    config = restored.config;
  }
  if (config.url) {
    const url = new URL(config.url);
    try {
      await checkTarget(url, { allowedHosts: allowedHostsFromEnv(), allowHttp: "always", resolver: systemResolver });
    } catch (error) {
      if (error instanceof BlockedRequestError) {
        return { ok: false, state: "blocked", message: blockedMessage(error), serverInfo: null, counts: null };
      }
      throw error;
    }
  }
  const pool = isolatedPool();
  try {
    const [status] = await pool.discover(caller.id, [{ id: `test-${randomUUID()}`, name: body.name || "test", config }]);
    const ok = status.state === "connected";
    const message = ok
      ? `Connected over ${status.transport}: ${status.counts.tools} tools, ${status.counts.resources} resources, ${status.counts.prompts} prompts.`
      : status.state === "needs_authorization"
        ? "The server wants you to sign in (OAuth): save it, then use Connect."
        : `Could not connect: ${status.lastError?.message ?? status.state}.`;
    return {
      ok,
      state: status.state,
      message,
      serverInfo: status.serverInfo ? { name: status.serverInfo.name, version: status.serverInfo.version } : null,
      counts: ok ? { tools: status.counts.tools, resources: status.counts.resources, prompts: status.counts.prompts } : null,
    };
  } finally {
    await pool.closeAll();
  }
}
