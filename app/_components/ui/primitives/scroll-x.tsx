/**
 * A box that scrolls sideways when its content (a wide table) does not fit, so the page itself never
 * does. It is a labelled region that takes focus: keyboard users scroll it with the arrow keys.
 */
import type { ReactNode } from "react";
import { cn } from "./cn";

/** The scrolling box; `label` names it for screen readers. */
export function ScrollX({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to be scrolled.
      tabIndex={0}
      className={cn("overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-ring", className)}
    >
      {children}
    </section>
  );
}
