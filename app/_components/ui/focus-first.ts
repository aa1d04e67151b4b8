"use client";

import { type RefObject, useEffect } from "react";

const FIELDS = "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])";

/** Mark the element whose first field `useFocusFirst` focuses: `<div {...FOCUS_ON_OPEN}>`. */
export const FOCUS_ON_OPEN = { "data-focus-on-open": "" } as const;

/**
 * Move focus to the first field of the `FOCUS_ON_OPEN` element inside `ref` whenever `opened`
 * becomes a new truthy value: what was just opened (a form, a panel) takes the keyboard, so nobody
 * has to Tab through the page to reach it.
 */
export function useFocusFirst(ref: RefObject<HTMLElement | null>, opened: unknown): void {
  useEffect(() => {
    if (opened) ref.current?.querySelector("[data-focus-on-open]")?.querySelector<HTMLElement>(FIELDS)?.focus();
  }, [ref, opened]);
}
