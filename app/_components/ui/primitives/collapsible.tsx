"use client";
import { ChevronRightIcon } from "lucide-react";
import { Collapsible as CollapsiblePrimitive } from "radix-ui";
import type * as React from "react";
import { cn } from "./cn";

/** A disclosure (WAI-ARIA): the trigger carries `aria-expanded` and `aria-controls`. */
export const Collapsible = CollapsiblePrimitive.Root;
/** The hidden-until-open region. */
export const CollapsibleContent = CollapsiblePrimitive.Content;

/** The disclosure button, with a chevron that turns when open so the control is visible. */
export function CollapsibleTrigger({ className, children, ...props }: React.ComponentProps<typeof CollapsiblePrimitive.Trigger>) {
  return (
    <CollapsiblePrimitive.Trigger
      className={cn(
        "group flex min-w-0 items-center gap-1.5 rounded text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        className,
      )}
      {...props}
    >
      <ChevronRightIcon className="size-4 shrink-0 transition-transform group-data-[state=open]:rotate-90" aria-hidden />
      {children}
    </CollapsiblePrimitive.Trigger>
  );
}
