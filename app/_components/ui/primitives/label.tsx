"use client";
import { Label as LabelPrimitive } from "radix-ui";
import type * as React from "react";
import { cn } from "./cn";

/** A form label; clicking it focuses the associated control. */
export function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root data-slot="label" className={cn("mb-1 block text-xs font-medium text-muted-foreground", className)} {...props} />
  );
}

/** A field's error text; give it an id and point the control's `aria-describedby` at it. */
export function FieldError({ className, ...props }: React.ComponentProps<"p">) {
  return <p role="alert" className={cn("mt-1 text-xs text-destructive", className)} {...props} />;
}
