import type * as React from "react";
import { cn } from "./cn";

// Native controls keep their keyboard and form behaviour; `accent-*` colours the mark, and a visible
// border plus size make the box readable on the page background in both themes.
const choiceClass =
  "size-4 shrink-0 cursor-pointer rounded-sm border border-input bg-surface accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40 disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:ring-2 aria-[invalid=true]:ring-destructive/30";

/** The app's one checkbox (a native input, so forms and `check()` work as usual). */
export function Checkbox({ className, ...props }: Omit<React.ComponentProps<"input">, "type">) {
  return <input data-slot="checkbox" type="checkbox" className={cn(choiceClass, className)} {...props} />;
}

/** The app's one radio button; group them under one `name` inside a `role="radiogroup"`. */
export function Radio({ className, ...props }: Omit<React.ComponentProps<"input">, "type">) {
  return <input data-slot="radio" type="radio" className={cn(choiceClass, "rounded-full", className)} {...props} />;
}

/** A checkbox or radio with its label text beside it; the whole row is the click target. */
export function ChoiceLabel({ className, ...props }: React.ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: the caller passes the control as a child
  return <label className={cn("flex cursor-pointer items-center gap-2 text-sm text-foreground", className)} {...props} />;
}
