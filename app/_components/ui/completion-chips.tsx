"use client";
/**
 * The server's completion suggestions for one argument as small buttons under its field (prompt
 * arguments, resource-template variables, the inspector's forms): one click fills the field.
 */
import { Button } from "./primitives/button";
import { cn } from "./primitives/cn";

/** The chips; nothing when there are no suggestions. `testId` names each chip for the tests that pick one. */
export function CompletionChips({
  options,
  max,
  onPick,
  testId,
  className,
}: {
  options: string[];
  max: number;
  onPick: (value: string) => void;
  testId: (option: string) => string;
  className?: string;
}) {
  if (options.length === 0) return null;
  return (
    <span className={cn("mt-1 flex flex-wrap gap-1", className)}>
      {options.slice(0, max).map((option) => (
        <Button
          key={option}
          type="button"
          variant="secondary"
          size="sm"
          className="h-6 px-1.5 font-normal"
          data-testid={testId(option)}
          onClick={() => onPick(option)}
        >
          {option}
        </Button>
      ))}
    </span>
  );
}
