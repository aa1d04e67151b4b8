import type * as React from "react";
import { fieldClass } from "./input";
import { cn } from "./cn";

/** The app's one file picker: the field look of {@link Input} with the browser's button styled as a secondary button. */
export function FileInput({ className, ...props }: Omit<React.ComponentProps<"input">, "type">) {
  return (
    <input
      data-slot="file-input"
      type="file"
      className={cn(
        fieldClass,
        "h-auto py-1.5 file:mr-3 file:cursor-pointer file:rounded file:border file:border-border file:bg-muted file:px-2 file:py-1 file:text-xs file:font-medium file:text-foreground",
        className,
      )}
      {...props}
    />
  );
}
