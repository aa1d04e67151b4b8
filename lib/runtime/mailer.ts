/**
 * Outgoing mail through the SMTP server `SWITCHBOARD_SMTP_URL` names (nodemailer), from
 * `SWITCHBOARD_MAIL_FROM`. Unset: no mail, and invitation and reset links are shown to the
 * administrator instead. The transport is made once per URL and reused (pooled connection).
 */
import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { mailSetting } from "../env";
import { redact } from "../redact";

/** One message: plain text only (links are all it carries). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

let transport: { url: string; transporter: Transporter } | undefined;

/** Whether mail is set up (`SWITCHBOARD_SMTP_URL`). */
export function mailConfigured(): boolean {
  return mailSetting() !== null;
}

/** Send `mail`; throws when mail is not set up or the SMTP server refuses it. */
export async function sendMail(mail: Mail): Promise<void> {
  const setting = mailSetting();
  if (!setting) throw new Error("mail is not set up (SWITCHBOARD_SMTP_URL)");
  if (transport?.url !== setting.smtpUrl) {
    transport?.transporter.close();
    transport = { url: setting.smtpUrl, transporter: nodemailer.createTransport(setting.smtpUrl) };
  }
  await transport.transporter.sendMail({ from: setting.from, to: mail.to, subject: mail.subject, text: mail.text });
}

/** Send `mail` without waiting; a failure is logged (its text redacted), never thrown. */
export function sendMailInBackground(mail: Mail, what: string): void {
  sendMail(mail).catch((error: unknown) => {
    console.error(`mail: could not send the ${what}: ${redact(error instanceof Error ? error.message : String(error))}`);
  });
}
