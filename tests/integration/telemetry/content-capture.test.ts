/**
 * Content capture (docs/telemetry.md#content-capture): off by default, so a tool call's span holds
 * no argument or result; an instance administrator turns it on with a recent sign-in, the change
 * is audited, and then the span carries the arguments and result redacted (the server's own secret
 * values and credential shapes masked).
 */
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { listRecentAudit } from "@/db/queries/audit";
import { sessions } from "@/db/schema";
import type { SessionUser } from "@/lib/auth/session";
import { startSession } from "@/lib/auth/sessions";
import { tracedToolCall } from "@/lib/telemetry/mcp-call";
import { setContentCapture, setTracingOn } from "@/lib/telemetry/state";
import { setTelemetrySettings, telemetrySettings } from "@/lib/use-cases/telemetry-settings";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { person } from "../workspaces/helpers";
import { exec } from "../../../db/exec";

// The use case is marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const SERVER_SECRET = "CANARY-server-header-value-91c2";
const KEY_SHAPED = "sk-live-CANARYabcdefghijklmnopqrstuv";
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
let dir = "";
let admin: SessionUser;

beforeAll(async () => {
  dir = useTempDataDir();
  const who = await person("admin@example.com"); // the first account: the instance administrator
  admin = {
    id: who.id,
    email: who.email,
    name: who.name,
    isAdmin: true,
    workspaceId: who.personalWorkspaceId,
    sessionId: await startSession(getDb(), who.id),
  } as SessionUser;
  trace.setGlobalTracerProvider(provider);
  setTracingOn(true);
});
afterAll(async () => {
  setTracingOn(false);
  setContentCapture(false);
  trace.disable();
  await provider.shutdown();
  removeTempDataDir(dir);
});

/** One tool call whose arguments and result hold both secrets; returns its span's attributes. */
async function callOnce() {
  exporter.reset();
  await tracedToolCall(
    {
      toolName: "echo",
      transport: "http",
      arguments: { message: `hello ${KEY_SHAPED}`, auth: SERVER_SECRET },
      secrets: () => [SERVER_SECRET],
    },
    async () => ({ isError: false, content: { content: [{ type: "text", text: `echoed ${SERVER_SECRET} and ${KEY_SHAPED}` }] } }),
  );
  return exporter.getFinishedSpans()[0].attributes;
}

describe("content capture", () => {
  it("is off by default: the span has no argument or result", async () => {
    expect(await telemetrySettings()).toEqual({ captureContent: false });
    const attributes = await callOnce();
    expect(Object.keys(attributes).filter((k) => k.startsWith("gen_ai.tool.call."))).toEqual([]);
    expect(JSON.stringify(attributes)).not.toContain("hello");
  });

  it("needs a recent sign-in to turn on, is audited, and then captures redacted content", async () => {
    await exec(
      getDb()
        .update(sessions)
        .set({ authenticatedAt: new Date(Date.now() - 11 * 60_000) })
        .where(eq(sessions.id, admin.sessionId)),
    );
    await expect(setTelemetrySettings(admin, { captureContent: true })).rejects.toThrow(
      expect.objectContaining({ code: "auth.reauth_required" }),
    );
    expect((await telemetrySettings()).captureContent).toBe(false);
    await exec(getDb().update(sessions).set({ authenticatedAt: new Date() }).where(eq(sessions.id, admin.sessionId)));
    expect(await setTelemetrySettings(admin, { captureContent: true })).toEqual({ captureContent: true });
    expect((await listRecentAudit(getDb())).find((e) => e.action === "instance.telemetry_capture")).toMatchObject({ actorId: admin.id });

    const attributes = await callOnce();
    expect(attributes["gen_ai.tool.call.arguments"]).toContain("hello");
    expect(attributes["gen_ai.tool.call.result"]).toContain("echoed");
    expect(JSON.stringify(attributes)).not.toContain(SERVER_SECRET);
    expect(JSON.stringify(attributes)).not.toContain(KEY_SHAPED);

    await setTelemetrySettings(admin, { captureContent: false });
    expect(Object.keys(await callOnce()).filter((k) => k.startsWith("gen_ai.tool.call."))).toEqual([]);
  });
});
