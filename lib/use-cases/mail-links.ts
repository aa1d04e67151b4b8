/**
 * Links that reach people: invitations and password resets go by email when mail is set up
 * (`SWITCHBOARD_SMTP_URL`), else back to whoever made them, to pass on. "Forgot password?" asks for
 * a reset link by email and answers the same whether or not the address has an account.
 */
import "server-only";
import { z } from "zod";
import { getDb } from "../../db/client";
import { getUserWithPasswordByEmail } from "../../db/queries/users";
import { completePasswordReset, describePasswordReset, issuePasswordReset } from "../auth/password-reset";
import { requireRecentAuth } from "../auth/reauth";
import type { SessionUser } from "../auth/session";
import { clientAddress, takeAttempt } from "../auth/sign-in-throttle";
import { AppError } from "../errors";
import { redact } from "../redact";
import { mailConfigured, sendMail, sendMailInBackground } from "../runtime/mailer";
import { requestPublicOrigin } from "../security/public-url";

export { passwordResetSchema } from "../auth/password-reset";

/** Body of `POST /api/auth/forgot-password`. */
export const forgotPasswordSchema = z.object({ email: z.string().trim().max(254) }).strict();

/** What "Forgot password?" always answers (an address with no account gets the very same). */
export const FORGOT_PASSWORD_ANSWER = {
  message: "If an account uses this email, a link to choose a new password is on its way. It works for one hour.",
} as const;

/** Whether mail is set up: the sign-in page then offers "Forgot password?". */
export function mailEnabled(): boolean {
  return mailConfigured();
}

// Send one link; false (logged) when the SMTP server refused it, so the caller shows the link instead.
async function mailed(to: string, subject: string, text: string): Promise<boolean> {
  if (!mailConfigured()) return false;
  try {
    await sendMail({ to, subject, text });
    return true;
  } catch (error) {
    console.error(`mail: could not send "${subject}": ${redact(error instanceof Error ? error.message : String(error))}`);
    return false;
  }
}

/**
 * An invitation as its creator sees it: sent by email (`emailed`, no link: it went to the invited
 * address only), or the link to pass on (mail not set up, or the SMTP server refused the message).
 */
export async function deliverInvitation<T extends { id: string; token: string; url: string }>(
  invitation: T,
  input: { email: string; workspaceName?: string | null },
): Promise<(T & { emailed: false }) | { id: string; emailed: true }> {
  const where = input.workspaceName ? `the workspace "${input.workspaceName}" on Switchboard` : "Switchboard";
  const text = `You are invited to ${where}.\n\nOpen this link to accept (it works for 7 days, once):\n${invitation.url}\n`;
  if (await mailed(input.email, `Invitation to ${where}`, text)) return { id: invitation.id, emailed: true };
  return { ...invitation, emailed: false };
}

/**
 * An instance administrator issues a one-time reset link for user `id` (audited): emailed to the
 * user when mail is set up, else answered for the administrator to pass on. Another user's account
 * is a sensitive act: it needs a recent sign-in (`auth.reauth_required`).
 */
export async function issuePasswordResetLink(admin: SessionUser, id: string, request: Request) {
  await requireRecentAuth(getDb(), admin);
  const issued = await issuePasswordReset(getDb(), { userId: id, issuedBy: admin.id }, { baseUrl: requestPublicOrigin(request) });
  const expiresAt = issued.expiresAt.toISOString();
  if (await mailed(issued.email, "Choose a new Switchboard password", resetText(issued.url, "An administrator")))
    return { emailed: true as const, email: issued.email, expiresAt };
  return { emailed: false as const, email: issued.email, url: issued.url, expiresAt };
}

function resetText(url: string, who: string): string {
  return `${who} asked for a link to choose a new password for your Switchboard account.\n\nOpen it within one hour (it works once; every session of the account ends when it is used):\n${url}\n\nIf you did not expect this, ignore this message: your password stays as it is.\n`;
}

/**
 * "Forgot password?": throttled like a sign-in (per address and per email), and the answer, its
 * status and its timing are the same whether or not the email has an account (the mail is sent
 * in the background, after the answer).
 */
export async function forgotPassword(request: Request, body: z.infer<typeof forgotPasswordSchema>) {
  if (!mailConfigured()) throw new AppError("mail.not_configured", "This instance sends no mail; ask an administrator for a reset link.");
  await takeAttempt("signIn", { email: body.email, address: clientAddress(request.headers) });
  const db = getDb();
  const user = await getUserWithPasswordByEmail(db, body.email);
  if (user && !user.disabledAt) {
    const issued = await issuePasswordReset(db, { userId: user.id, issuedBy: null }, { baseUrl: requestPublicOrigin(request) });
    sendMailInBackground(
      { to: issued.email, subject: "Choose a new Switchboard password", text: resetText(issued.url, "Someone (probably you)") },
      "password-reset link",
    );
  }
  return FORGOT_PASSWORD_ANSWER;
}

/** Whose account a reset link is for, or an AppError saying why it no longer works. */
export async function passwordResetFor(token: string): Promise<{ email: string }> {
  return await describePasswordReset(getDb(), token);
}

/** Set a new password through a reset link (single use; every session of the account ends). */
export function resetPassword(token: string, body: unknown) {
  return completePasswordReset(getDb(), token, body);
}
