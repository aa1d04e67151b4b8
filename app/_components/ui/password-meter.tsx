"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { PasswordStrength } from "@/lib/domain/password-strength";
import { Input } from "./primitives/input";

const LABELS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"] as const;
const COLOURS = ["bg-red-600", "bg-orange-500", "bg-amber-500", "bg-green-600", "bg-green-700"] as const;

type Scorer = (password: string, userInputs?: string[]) => PasswordStrength;
let scorer: Promise<Scorer> | undefined;
// The common-password list is large: loaded on the first keystroke, not with the page.
const loadScorer = () => (scorer ??= import("@/lib/domain/password-strength").then((m) => m.passwordStrength));

/**
 * A new-password input with a strength meter under it: the same score and common-password check the
 * server applies (lib/domain/password-strength.ts), shown while typing. `userInputs`: the person's
 * email or name, which make a password easier to guess.
 */
export function NewPasswordInput({ userInputs = [], ...props }: React.ComponentProps<"input"> & { userInputs?: string[] }) {
  const [password, setPassword] = useState("");
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const meterId = useId();
  const input = useRef<HTMLInputElement>(null);
  // A form that resets after a successful change empties the field: the meter goes with it.
  useEffect(() => {
    const form = input.current?.form;
    const clear = () => setPassword("");
    form?.addEventListener("reset", clear);
    return () => form?.removeEventListener("reset", clear);
  }, []);
  const inputs = userInputs.join("\n");
  useEffect(() => {
    if (!password) return setStrength(null);
    let current = true;
    void loadScorer().then((score) => {
      if (current) setStrength(score(password, inputs ? inputs.split("\n") : []));
    });
    return () => {
      current = false;
    };
  }, [password, inputs]);

  const label = strength && (strength.common ? "Common or breached password" : LABELS[strength.score]);
  return (
    <>
      <Input
        ref={input}
        type="password"
        autoComplete="new-password"
        aria-describedby={meterId}
        {...props}
        onChange={(event) => {
          setPassword(event.target.value);
          props.onChange?.(event);
        }}
      />
      <div
        id={meterId}
        className="mt-1 min-h-5 text-xs text-muted-foreground"
        data-testid="password-meter"
        data-score={strength?.score ?? ""}
      >
        {strength && (
          <>
            <div className="flex gap-1" aria-hidden="true">
              {LABELS.map((name, i) => (
                <span
                  key={name}
                  className={`h-1 flex-1 rounded ${i <= strength.score && !strength.common ? COLOURS[strength.score] : "bg-muted"}`}
                />
              ))}
            </div>
            <p aria-live="polite">
              Strength: {label}
              {strength.hint ? ` — ${strength.hint}` : ""}
            </p>
          </>
        )}
      </div>
    </>
  );
}
