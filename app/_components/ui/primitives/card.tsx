import type * as React from "react";
import { cn } from "./cn";

/** A bordered surface for a group of settings or a list. */
export function Card({ className, ...props }: React.ComponentProps<"section">) {
  return <section data-slot="card" className={cn("rounded-lg border border-border bg-surface p-4", className)} {...props} />;
}
