"use client";
/**
 * A tool call's whole result: each content block, the structured content checked against the
 * tool's output schema, whether the server flagged an error, and how long the call took.
 * Images show only as `data:` URLs built from the block's bytes; links are shown, never followed.
 */
import validator from "@rjsf/validator-ajv8";
import type { HandCallResult } from "./inspector-api";
import { formSchema } from "./form-schema";

/** The result panel. */
export function ToolResult({ outcome, outputSchema }: { outcome: HandCallResult; outputSchema?: Record<string, unknown> }) {
  const { result, durationMs } = outcome;
  const structured = result.structuredContent;
  const schemaErrors =
    structured !== undefined && outputSchema
      ? validator.validateFormData(structured, formSchema(outputSchema)).errors.map((e) => e.stack)
      : null;
  return (
    <div className="space-y-2 rounded border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="tool-result">
      <p className="text-xs">
        <span
          data-testid="result-status"
          className={`rounded px-1.5 py-0.5 font-medium ${result.isError ? "bg-red-100 text-red-800" : "bg-emerald-100 text-emerald-800"}`}
        >
          {result.isError ? "isError" : "ok"}
        </span>
        {durationMs !== null && (
          <span className="ml-2 text-zinc-500" data-testid="result-duration">
            {durationMs.toFixed(0)} ms
          </span>
        )}
        {result.errorCode && <span className="ml-2 text-zinc-500">{result.errorCode}</span>}
      </p>
      {(result.content ?? []).map((block, index) => (
        <div key={index} data-testid="content-block" className="rounded bg-zinc-50 p-2 dark:bg-zinc-900">
          <span className="text-xs text-zinc-500">{block.type}</span>
          {block.type === "text" && <pre className="whitespace-pre-wrap text-xs">{block.text}</pre>}
          {block.type === "image" && <img src={`data:${block.mimeType};base64,${block.data}`} alt="" className="max-h-64" />}
          {block.type === "audio" && (
            <p className="text-xs">
              {block.mimeType} audio ({block.data.length} base64 characters)
            </p>
          )}
          {block.type === "resource_link" && (
            <p className="text-xs">
              <code>{block.uri}</code> {block.name}
            </p>
          )}
          {block.type === "resource" && <pre className="whitespace-pre-wrap text-xs">{JSON.stringify(block.resource, null, 2)}</pre>}
        </div>
      ))}
      {structured !== undefined && (
        <div data-testid="structured-content">
          <p className="text-xs text-zinc-500">
            structured content
            {schemaErrors === null ? " (no output schema)" : schemaErrors.length === 0 ? " — matches the output schema" : ""}
          </p>
          {schemaErrors && schemaErrors.length > 0 && (
            <ul className="field-error text-xs" data-testid="schema-errors">
              {schemaErrors.map((error) => (
                <li key={error}>does not match the output schema: {error}</li>
              ))}
            </ul>
          )}
          <pre className="whitespace-pre-wrap rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-900">{JSON.stringify(structured, null, 2)}</pre>
        </div>
      )}
    </div>
  );
}
