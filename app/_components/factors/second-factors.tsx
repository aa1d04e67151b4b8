"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { PasskeyEnrolment } from "./passkey-enrolment";
import { passkeyProof } from "./passkey-proof";
import { TotpEnrolment } from "./totp-enrolment";

/** A factor as the account page lists it. */
export interface FactorItem {
  id: string;
  kind: "totp" | "passkey";
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Account › Second factors: authenticator apps and passkeys, how many recovery codes are left, add and remove. */
export function SecondFactors({ factors, recoveryCodesLeft }: { factors: FactorItem[]; recoveryCodesLeft: number }) {
  const router = useRouter();
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A finished enrolment starts over with a fresh form (its recovery codes gone from the screen).
  const [round, setRound] = useState(0);

  // Removal proves a factor: a code typed in, or (`proof` null) one of the user's passkeys.
  async function remove(id: string, code: string | null) {
    setError(null);
    try {
      const proof = code === null ? { passkey: await passkeyProof() } : { code };
      await api(`/api/account/factors/${encodeURIComponent(id)}`, { method: "DELETE", json: proof });
      setRemoving(null);
      router.refresh();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The factor could not be removed.");
    }
  }
  const hasPasskey = factors.some((factor) => factor.kind === "passkey");
  const done = () => {
    setRound(round + 1);
    router.refresh();
  };

  return (
    <div className="space-y-3" data-testid="second-factors">
      <h2 className="text-lg font-medium">Second factors</h2>
      {factors.length === 0 ? (
        <p className="text-sm text-muted-foreground">None yet: signing in needs only your password.</p>
      ) : (
        <>
          <ul className="space-y-2 text-sm">
            {factors.map((factor) => (
              <li key={factor.id} className="space-y-2" data-testid="factor">
                <div className="flex items-center gap-2">
                  <span>{factor.name}</span>
                  <span className="text-muted-foreground">
                    {factor.kind === "passkey" ? "passkey" : "authenticator app"}, added {new Date(factor.createdAt).toLocaleDateString()}
                    {factor.lastUsedAt && `, last used ${new Date(factor.lastUsedAt).toLocaleDateString()}`}
                  </span>
                  <Button size="sm" variant="ghost" onClick={() => setRemoving(factor.id)}>
                    Remove
                  </Button>
                </div>
                {removing === factor.id && (
                  <form
                    method="post"
                    onSubmit={(event) => {
                      event.preventDefault();
                      void remove(factor.id, String(new FormData(event.currentTarget).get("code")));
                    }}
                    className="flex flex-wrap items-end gap-2"
                  >
                    <div>
                      <Label htmlFor={`remove-${factor.id}`}>Current code or a recovery code</Label>
                      <Input id={`remove-${factor.id}`} name="code" autoComplete="one-time-code" required={!hasPasskey} />
                    </div>
                    <Button type="submit" variant="destructive">
                      Remove factor
                    </Button>
                    {hasPasskey && (
                      <Button type="button" variant="secondary" onClick={() => remove(factor.id, null)}>
                        Remove with a passkey
                      </Button>
                    )}
                  </form>
                )}
              </li>
            ))}
          </ul>
          <p className="text-sm text-muted-foreground" data-testid="recovery-codes-left">
            {recoveryCodesLeft} recovery code{recoveryCodesLeft === 1 ? "" : "s"} left.
          </p>
        </>
      )}
      {error && <FieldError role="alert">{error}</FieldError>}
      <TotpEnrolment key={`totp-${round}`} onDone={done} />
      <PasskeyEnrolment key={`passkey-${round}`} onDone={done} />
    </div>
  );
}
