"use client";
/**
 * Keyboard handling for a WAI-ARIA combobox with a listbox popup (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/):
 * focus stays in the text field, ArrowUp/ArrowDown move the highlighted option (announced through
 * `aria-activedescendant`), Enter or Tab picks it, Escape closes the popup.
 */
import { type KeyboardEvent, useEffect, useId, useState } from "react";

/** What the combobox needs. */
export interface ListboxOptions {
  /** Whether the popup is shown. */
  open: boolean;
  /** How many options it shows now. */
  count: number;
  onPick: (index: number) => void;
  onClose: () => void;
}

/** The highlighted option, the props for the field, the listbox and each option, and the key handler. */
export function useListbox({ open, count, onPick, onClose }: ListboxOptions) {
  const id = useId();
  const [active, setActive] = useState(0);
  // A new list (the query changed) starts at its first option.
  useEffect(() => {
    setActive((a) => (count === 0 ? 0 : Math.min(a, count - 1)));
  }, [count]);
  const optionId = (i: number) => `${id}-option-${i}`;
  /** Handle a key in the field; true when it was the combobox's (the caller must not act on it too). */
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (count > 0) setActive((a) => (e.key === "ArrowDown" ? (a + 1) % count : (a - 1 + count) % count));
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      if (count === 0) return false;
      e.preventDefault();
      onPick(active);
      return true;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
      return true;
    }
    return false;
  };
  return {
    active,
    setActive,
    onKeyDown,
    fieldProps: {
      role: "combobox" as const,
      "aria-expanded": open,
      "aria-controls": `${id}-listbox`,
      "aria-autocomplete": "list" as const,
      "aria-activedescendant": open && count > 0 ? optionId(active) : undefined,
    },
    listboxProps: { id: `${id}-listbox`, role: "listbox" as const },
    optionProps: (i: number) => ({
      id: optionId(i),
      role: "option" as const,
      "aria-selected": i === active,
      onMouseEnter: () => setActive(i),
      // Keep focus in the field: a mouse pick must not blur it first.
      onMouseDown: (e: { preventDefault(): void }) => e.preventDefault(),
      onClick: () => onPick(i),
    }),
  };
}
