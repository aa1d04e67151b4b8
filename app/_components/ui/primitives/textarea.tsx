import type * as React from "react";
import { fieldClass } from "./input";
import { cn } from "./cn";

/** The app's one multi-line input, styled like {@link Input}. */
export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" className={cn(fieldClass, "min-h-16", className)} {...props} />;
}
