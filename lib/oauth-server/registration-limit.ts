/**
 * The limit on dynamic client registration (RFC 7591): `/oauth/reg` is open to anyone, as MCP
 * clients register themselves before any user signs in, so each client address may register
 * REGISTRATIONS_FREE clients an hour; after that each further registration waits twice as long
 * as the last (up to an hour). The counts live in the coordination (lib/cluster): with `REDIS_URL`
 * every replica counts together.
 */
import { Backoff } from "../security/backoff";

const HOUR_MS = 3_600_000;

/** Registrations one client address may make within an hour before it has to wait. */
export const REGISTRATIONS_FREE = 20;

/** The registration backoff, per client address. */
export const registrationLimit = new Backoff({
  name: "oauth-registration-address",
  free: REGISTRATIONS_FREE,
  baseMs: 60_000,
  maxMs: HOUR_MS,
  windowMs: HOUR_MS,
});
