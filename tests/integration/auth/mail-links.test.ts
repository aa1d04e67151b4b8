/**
 * Issue 31: with mail set up (`SWITCHBOARD_SMTP_URL`), invitations and password-reset links arrive
 * by email, and "Forgot password?" answers an unknown address exactly as a known one. A real SMTP
 * server (the `smtp-server` package) listens on loopback inside the test; nodemailer talks to it.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { verifyCredentials } from "@/lib/auth/credentials";
import { startSession, resolveSession } from "@/lib/auth/sessions";
import { limiters } from "@/lib/auth/sign-in-throttle";
import { describeInvitation } from "@/lib/workspaces/invitations";
import { adminInviteUser } from "@/lib/workspaces/admin";
import { createInvitation } from "@/lib/workspaces/invitations";
import { removeTempDataDir, useTempDataDir } from "../../helpers/temp-data-dir";
import { actorIn, type Person, person, team } from "../workspaces/helpers";

// The use cases are marked server-only (a bundler marker that throws outside Next's server build).
vi.mock("server-only", () => ({}));

const { deliverInvitation, forgotPassword, issuePasswordResetLink, resetPassword } = await import("@/lib/use-cases/mail-links");

type Received = { to: string[]; from: string; text: string };
const inbox: Received[] = [];
let smtp: SMTPServer;
let smtpUrl = "";
let dir: string;
let admin: Person;

// The body as written, undoing quoted-printable (soft line breaks and =XX escapes).
function decoded(raw: string): string {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return /content-transfer-encoding: quoted-printable/i.test(raw)
    ? body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : body;
}

beforeAll(async () => {
  dir = useTempDataDir();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          text: decoded(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.SWITCHBOARD_SMTP_URL = smtpUrl;
  process.env.SWITCHBOARD_MAIL_FROM = "Switchboard <noreply@switchboard.test>";
  admin = await person("admin@example.com");
});
afterEach(() => {
  process.env.SWITCHBOARD_SMTP_URL = smtpUrl;
});
afterAll(async () => {
  delete process.env.SWITCHBOARD_SMTP_URL;
  delete process.env.SWITCHBOARD_MAIL_FROM;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  removeTempDataDir(dir);
});

const request = () => new Request("http://localhost:3000/api/x", { method: "POST", headers: { host: "localhost:3000" } });
// The administrator as the route sees them: a session that signed in just now (a recent sign-in is needed).
const sessionAdmin = async (signedInAt = new Date()) => ({
  ...admin,
  isAdmin: true,
  workspaceId: admin.personalWorkspaceId,
  sessionId: await startSession(getDb(), admin.id, signedInAt),
});

async function mailTo(address: string): Promise<Received> {
  await expect.poll(() => inbox.some((m) => m.to.includes(address)), { timeout: 10_000 }).toBe(true);
  return inbox.find((m) => m.to.includes(address))!;
}

const linkIn = (text: string, path: string) => text.match(new RegExp(`http://localhost:3000/${path}/[A-Za-z0-9_-]+`))?.[0] ?? null;

describe("mail set up", () => {
  it("an instance invitation is sent to the address, not shown to the administrator; its link works", async () => {
    const created = await adminInviteUser(getDb(), admin, "newcomer@example.com", "http://localhost:3000");
    const answer = await deliverInvitation(created, { email: "newcomer@example.com" });
    expect(answer).toEqual({ id: created.id, emailed: true });
    const mail = await mailTo("newcomer@example.com");
    expect(mail.from).toBe("noreply@switchboard.test");
    expect(linkIn(mail.text, "invite")).toBe(created.url);
    expect(await describeInvitation(getDb(), created.token)).toMatchObject({ email: "newcomer@example.com" });
  });

  it("a workspace invitation names the workspace in the mail", async () => {
    const teamId = await team(admin, "Mail Team");
    const created = await createInvitation(
      getDb(),
      await actorIn(admin, teamId),
      { email: "teammate@example.com", role: "member" },
      { baseUrl: "http://localhost:3000" },
    );
    expect(await deliverInvitation(created, { email: "teammate@example.com", workspaceName: "Mail Team" })).toEqual({
      id: created.id,
      emailed: true,
    });
    const mail = await mailTo("teammate@example.com");
    expect(mail.text).toContain('the workspace "Mail Team"');
    expect(linkIn(mail.text, "invite")).toBe(created.url);
  });

  it("an administrator's reset link goes to the user by mail and works once", async () => {
    const user = await person("reset-by-mail@example.com");
    // Another user's account is a sensitive act: a sign-in older than 10 minutes must be confirmed first.
    await expect(issuePasswordResetLink(await sessionAdmin(new Date(Date.now() - 11 * 60_000)), user.id, request())).rejects.toMatchObject({
      code: "auth.reauth_required",
    });
    const sid = await startSession(getDb(), user.id);
    const answer = await issuePasswordResetLink(await sessionAdmin(), user.id, request());
    expect(answer).toMatchObject({ emailed: true, email: "reset-by-mail@example.com" });
    expect(answer).not.toHaveProperty("url");
    const link = linkIn((await mailTo("reset-by-mail@example.com")).text, "reset");
    expect(link).not.toBeNull();
    const token = link!.split("/reset/")[1];
    expect(await resetPassword(token, { password: "a mailed new password" })).toEqual({
      email: "reset-by-mail@example.com",
      endedSessions: 1,
    });
    expect(await resolveSession(getDb(), sid)).toBeNull();
    expect(await verifyCredentials(getDb(), user.email, "a mailed new password")).toMatchObject({ outcome: "ok" });
    await expect(resetPassword(token, { password: "another mailed password" })).rejects.toMatchObject({ code: "reset.used" });
  });

  it("'Forgot password?' answers an unknown address exactly as a known one, and mails only the known one", async () => {
    const user = await person("forgot@example.com");
    const known = forgotPassword(request(), { email: "forgot@example.com" });
    const unknown = forgotPassword(request(), { email: "nobody-here@example.com" });
    expect(unknown).toEqual(known);
    const link = linkIn((await mailTo("forgot@example.com")).text, "reset");
    // Give a (wrong) mail to the unknown address time to arrive after the known one did.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inbox.some((m) => m.to.includes("nobody-here@example.com"))).toBe(false);
    await resetPassword(link!.split("/reset/")[1], { password: "a remembered password" });
    expect(await verifyCredentials(getDb(), user.email, "a remembered password")).toMatchObject({ outcome: "ok" });
  });

  it("'Forgot password?' is throttled like sign-in, for known and unknown addresses alike", async () => {
    for (const email of ["throttled@example.com", "also-unknown@example.com"]) {
      await limiters.signInAccount.reset(`account:${email}`);
      // One after another, as a person retrying would (forgotPassword is async: its refusal is a rejection).
      const attempts: (string | undefined)[] = [];
      for (let i = 0; i < 8; i++) {
        try {
          await forgotPassword(request(), { email });
          attempts.push("answered");
        } catch (error) {
          attempts.push((error as { code?: string }).code);
        }
      }
      expect(attempts.slice(0, 5)).toEqual(Array(5).fill("answered"));
      expect(attempts).toContain("auth.rate_limited");
    }
    await limiters.signInAddress.reset("address:unknown");
  });
});

describe("mail not set up", () => {
  it("links go back to the creator, and 'Forgot password?' says the instance sends no mail", async () => {
    delete process.env.SWITCHBOARD_SMTP_URL;
    const created = await adminInviteUser(getDb(), admin, "by-hand@example.com", "http://localhost:3000");
    expect(await deliverInvitation(created, { email: "by-hand@example.com" })).toEqual({ ...created, emailed: false });
    const user = await person("by-hand-reset@example.com");
    expect(await issuePasswordResetLink(await sessionAdmin(), user.id, request())).toMatchObject({
      emailed: false,
      url: expect.stringMatching(/^http:\/\/localhost:3000\/reset\//),
    });
    await expect(forgotPassword(request(), { email: "by-hand-reset@example.com" })).rejects.toThrow(
      expect.objectContaining({ code: "mail.not_configured" }),
    );
    expect(inbox.some((m) => m.to.includes("by-hand@example.com") || m.to.includes("by-hand-reset@example.com"))).toBe(false);
  });
});
