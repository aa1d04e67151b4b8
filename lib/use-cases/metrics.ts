/**
 * `GET /api/metrics` (docs/telemetry.md#prometheus): the app's metrics in the Prometheus text
 * format for the operator's scraper, behind `SWITCHBOARD_METRICS_TOKEN` as a bearer token. Unset,
 * the endpoint does not exist (404); a missing or wrong token is a 401.
 */
import "server-only";
import { timingSafeEqual } from "node:crypto";
import { AppError } from "../errors";
import { metricsRegistry } from "../telemetry/metrics";
import { metricsToken } from "../telemetry/settings";

/** The exposition for a request carrying the right bearer token; throws the 404 or 401 otherwise. */
export async function metricsExposition(request: Request): Promise<Response> {
  const token = metricsToken();
  if (!token) throw new AppError("metrics.not_enabled", "The metrics endpoint is off (set SWITCHBOARD_METRICS_TOKEN).");
  const sent = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
  if (!sameSecret(sent, token)) throw new AppError("auth.unauthorized", "A valid metrics token is required.");
  const registry = metricsRegistry();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}

// Constant-time over the longer length, so the comparison tells nothing of the token's length or prefix.
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  const size = Math.max(a.length, b.length);
  return (
    timingSafeEqual(Buffer.concat([a, Buffer.alloc(size - a.length)]), Buffer.concat([b, Buffer.alloc(size - b.length)])) &&
    a.length === b.length
  );
}
