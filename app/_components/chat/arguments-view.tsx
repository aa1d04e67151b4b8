"use client";
/** A tool call's arguments as key/value pairs; nested values as compact JSON (the raw JSON stays copyable). */

/** The arguments of one call. */
export function ArgumentsView({ value }: { value: unknown }) {
  const entries = value && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : null;
  if (!entries) {
    return (
      <pre data-testid="tool-args" className="whitespace-pre-wrap break-words font-mono text-xs">
        {JSON.stringify(value ?? {}, null, 2)}
      </pre>
    );
  }
  if (entries.length === 0)
    return (
      <p data-testid="tool-args" className="text-xs text-muted-foreground">
        (none)
      </p>
    );
  return (
    <dl data-testid="tool-args" className="grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
      {entries.map(([key, v]) => (
        <div key={key} className="contents">
          <dt className="truncate font-medium text-muted-foreground">{key}</dt>
          <dd className="min-w-0 whitespace-pre-wrap break-words font-mono">{typeof v === "string" ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
