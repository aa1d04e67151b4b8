/**
 * The instance's telemetry setting an administrator changes (docs/telemetry.md#content-capture):
 * content capture, off by default, puts tool arguments and results (redacted) on the spans sent to
 * the operator's collector. Turning it on or off is a sensitive act: it needs a recent sign-in and
 * is audited.
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { requireRecentAuth } from "../auth/reauth";
import type { SessionUser } from "../auth/session";
import { storeContentCapture, storedContentCapture } from "../runtime/telemetry";

/** The body of `PUT /api/admin/telemetry`. */
export const telemetrySettingsSchema = z.object({ captureContent: z.boolean() }).strict();

/** What the administrators' page shows. */
export interface TelemetrySettings {
  captureContent: boolean;
}

/** The setting as stored (and in force on every replica: start-up and every change apply it). */
export async function telemetrySettings(): Promise<TelemetrySettings> {
  return { captureContent: await storedContentCapture(getDb()) };
}

/** Turn content capture on or off (an instance administrator, recently signed in); audited. */
export async function setTelemetrySettings(admin: SessionUser, input: z.infer<typeof telemetrySettingsSchema>): Promise<TelemetrySettings> {
  const db = getDb();
  await requireRecentAuth(db, admin);
  const before = await storedContentCapture(db);
  // Applied here at once and on every other replica when it hears of it (lib/runtime/telemetry.ts).
  await storeContentCapture(db, input.captureContent);
  await recordAudit(db, { actorId: admin.id, action: "instance.telemetry_capture", detail: { from: before, to: input.captureContent } });
  return await telemetrySettings();
}
