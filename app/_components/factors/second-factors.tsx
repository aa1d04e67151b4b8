"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { TotpEnrolment } from "./totp-enrolment";

/** A factor as the account page lists it. */
export interface FactorItem {
  id: string;
  name: string;
  createdAt: string;
}

/** Account › Second factors: the authenticators, how many recovery codes are left, add and remove. */
export function SecondFactors({ factors, recoveryCodesLeft }: { factors: FactorItem[]; recoveryCodesLeft: number }) {
  const router = useRouter();
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A finished enrolment starts over with a fresh form (its recovery codes gone from the screen).
  const [round, setRound] = useState(0);

  async function remove(event: React.FormEvent<HTMLFormElement>, id: string) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code"));
    setError(null);
    try {
      await api(`/api/account/factors/${encodeURIComponent(id)}`, { method: "DELETE", json: { code } });
      setRemoving(null);
      router.refresh();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The factor could not be removed.");
    }
  }

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
                  <span className="text-muted-foreground">added {new Date(factor.createdAt).toLocaleDateString()}</span>
                  <Button size="sm" variant="ghost" onClick={() => setRemoving(factor.id)}>
                    Remove
                  </Button>
                </div>
                {removing === factor.id && (
                  <form method="post" onSubmit={(event) => remove(event, factor.id)} className="flex flex-wrap items-end gap-2">
                    <div>
                      <Label htmlFor={`remove-${factor.id}`}>Current code or a recovery code</Label>
                      <Input id={`remove-${factor.id}`} name="code" autoComplete="one-time-code" required />
                    </div>
                    <Button type="submit" variant="destructive">
                      Remove factor
                    </Button>
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
      <TotpEnrolment
        key={round}
        onDone={() => {
          setRound(round + 1);
          router.refresh();
        }}
      />
    </div>
  );
}
