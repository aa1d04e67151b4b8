"use client";
/**
 * A text input that asks the server for completions (`completion/complete`) as the person types,
 * offered through a datalist. A failed completion is shown, not hidden: the server may not support it.
 */
import { CompletionChips } from "../ui/completion-chips";
import { useEffect, useId, useState } from "react";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";

/** One argument or template variable with server-side completions. */
export function CompletionInput({
  name,
  value,
  onChange,
  suggest,
  required,
}: {
  name: string;
  value: string;
  onChange: (value: string) => void;
  suggest: (value: string) => Promise<string[]>;
  required?: boolean;
}) {
  const listId = useId();
  const [options, setOptions] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      suggest(value).then(
        (values) => {
          if (!current) return;
          setOptions(values);
          setProblem(null);
        },
        (e: Error) => current && setProblem(e.message),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value, suggest]);
  return (
    <Label className="mb-0 text-sm font-normal text-foreground">
      <span className="text-muted-foreground">
        {name}
        {required && " *"}
      </span>
      <Input
        className="mt-0.5"
        list={listId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`arg-${name}`}
        required={required}
      />
      <datalist id={listId} data-testid={`completions-${name}`}>
        {options.map((option) => (
          <option key={option} value={option} />
        ))}
      </datalist>
      <CompletionChips options={options} max={8} className="mt-0.5" testId={(option) => `completion-${name}-${option}`} onPick={onChange} />
      {problem && <span className="text-xs text-zinc-500">completions unavailable: {problem}</span>}
    </Label>
  );
}
