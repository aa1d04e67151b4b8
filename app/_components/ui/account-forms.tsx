"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { ApiError, apiRequest } from "../api-client";
import { Button } from "./primitives/button";
import { Input } from "./primitives/input";
import { FieldError, Label } from "./primitives/label";
import { NewPasswordInput } from "./password-meter";

/** One call through the app's API client, as `{ok, data}` (a failure's data carries its `message`). */
async function send(path: string, init: RequestInit): Promise<{ ok: boolean; data: Record<string, unknown> }> {
  try {
    return { ok: true, data: (await apiRequest<Record<string, unknown> | undefined>(path, init)) ?? {} };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, data: { message: error.message } };
  }
}

/** Password change: the current password, then the new one; other devices are signed out. */
export function PasswordForm() {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    const { ok, data } = await send("/api/account/password", {
      method: "POST",
      body: JSON.stringify({ currentPassword: String(form.get("currentPassword")), newPassword: String(form.get("newPassword")) }),
    });
    setBusy(false);
    if (ok) formElement.reset();
    const ended = Number(data.endedSessions ?? 0);
    setMessage(
      ok
        ? { ok, text: `Password changed. ${ended} other session${ended === 1 ? "" : "s"} signed out.` }
        : { ok, text: typeof data.message === "string" ? data.message : "The password could not be changed." },
    );
  }

  // method="post": a submit before hydration must never put the passwords in the URL.
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-3" data-testid="password-form">
      <h2 className="text-lg font-medium">Change password</h2>
      <div>
        <Label htmlFor="currentPassword">Current password</Label>
        <Input id="currentPassword" name="currentPassword" type="password" autoComplete="current-password" required />
      </div>
      <div>
        <Label htmlFor="newPassword">New password (10+ characters)</Label>
        <NewPasswordInput id="newPassword" name="newPassword" required />
      </div>
      {message && (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-sm text-green-700" : "field-error"}>
          {message.text}
        </p>
      )}
      <Button disabled={busy} type="submit">
        {busy ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}

/** Ends every session of the user, this browser's too. */
export function SignOutEverywhereButton() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onClick() {
    setBusy(true);
    const { ok } = await send("/api/account/sessions", { method: "DELETE" });
    if (!ok) {
      setBusy(false);
      setError("Could not end the sessions; try again.");
      return;
    }
    await signOut({ callbackUrl: "/signin" });
  }

  return (
    <div className="space-y-2">
      <h2 className="text-lg font-medium">Sessions</h2>
      <p className="text-sm text-muted-foreground">Signs you out on every browser and device, this one included.</p>
      {error && <FieldError role="alert">{error}</FieldError>}
      <Button variant="secondary" disabled={busy} type="button" onClick={onClick}>
        Sign out of all devices
      </Button>
    </div>
  );
}
