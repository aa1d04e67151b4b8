"use client";
/**
 * Browse each server's resources and resource templates and attach them to the next message. The
 * search field is a combobox over every server's resources (arrows, Enter attaches, Escape closes);
 * templates get a small form for their variables with the server's `completion/complete`
 * suggestions. The content is read on the server at send time.
 */
import { CompletionChips } from "../ui/completion-chips";
import type { Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import { useEffect, useId, useRef, useState } from "react";
import { expandTemplate, templateVariables } from "@/lib/agent/uri-template";
import { completeResourceArgument, listResources, listServers, type ServerSummary, type WorkspaceSlug } from "../api-client";
import { Button } from "../ui/primitives/button";
import { cn } from "../ui/primitives/cn";
import { Input } from "../ui/primitives/input";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { useListbox } from "./use-listbox";

/** A resource chosen for the next message. */
export interface Attachment {
  serverId: string;
  serverName: string;
  uri: string;
  name?: string;
}

interface ServerResources {
  server: ServerSummary;
  resources: Resource[];
  templates: ResourceTemplate[];
  error?: string;
}

function VariableField({
  server,
  template,
  name,
  values,
  onChange,
}: {
  server: ServerSummary;
  template: ResourceTemplate;
  name: string;
  values: Record<string, string>;
  onChange: (v: string) => void;
}) {
  const ws = useWorkspaceSlug();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputId = useId();
  const suggest = (value: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // Suggestions are optional help: a server without completions simply offers none.
      completeResourceArgument(ws, server.id, template.uriTemplate, name, value, values).then(setSuggestions, () => setSuggestions([]));
    }, 200);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <span className="inline-flex flex-col">
      <label htmlFor={inputId} className="text-xs">
        {name}
      </label>
      <Input
        id={inputId}
        aria-label={`${template.name} ${name}`}
        required
        value={values[name] ?? ""}
        onFocus={() => suggest(values[name] ?? "")}
        onChange={(e) => {
          onChange(e.target.value);
          suggest(e.target.value);
        }}
        className="h-7 w-28"
      />
      <CompletionChips
        options={suggestions}
        max={8}
        testId={() => "template-completion"}
        onPick={(value) => {
          onChange(value);
          setSuggestions([]);
        }}
      />
    </span>
  );
}

function TemplateForm({
  server,
  template,
  onAttach,
}: {
  server: ServerSummary;
  template: ResourceTemplate;
  onAttach: (a: Attachment) => void;
}) {
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      data-testid="template-form"
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onAttach({ serverId: server.id, serverName: server.name, uri: expandTemplate(template.uriTemplate, values), name: template.name });
      }}
    >
      {variables.map((v) => (
        <VariableField
          key={v}
          server={server}
          template={template}
          name={v}
          values={values}
          onChange={(value) => setValues((old) => ({ ...old, [v]: value }))}
        />
      ))}
      <Button type="submit" variant="secondary" size="sm">
        Attach
      </Button>
    </form>
  );
}

/** Load the resources of every enabled server of workspace `ws`; a server that fails keeps its error to show. */
async function loadResources(ws: WorkspaceSlug): Promise<ServerResources[]> {
  const servers = (await listServers(ws)).filter((s) => s.config.enabled !== false);
  return Promise.all(
    servers.map(async (server) => {
      try {
        const r = await listResources(ws, server.id);
        return { server, resources: r.resources, templates: r.resourceTemplates };
      } catch (error) {
        return { server, resources: [], templates: [], error: (error as Error).message };
      }
    }),
  );
}

/** The picker panel. */
export function ResourcePicker({ onAttach, onClose }: { onAttach: (a: Attachment) => void; onClose: () => void }) {
  const ws = useWorkspaceSlug();
  const [data, setData] = useState<ServerResources[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    let live = true;
    loadResources(ws).then(
      (d) => live && setData(d),
      (e: Error) => live && setProblem(e.message),
    );
    search.current?.focus();
    return () => {
      live = false;
    };
  }, [ws]);
  const q = query.toLowerCase();
  const options = (data ?? []).flatMap(({ server, resources }) =>
    resources.filter((r) => `${server.name} ${r.title ?? r.name} ${r.uri}`.toLowerCase().includes(q)).map((r) => ({ server, resource: r })),
  );
  const attachOption = (i: number) => {
    const { server, resource: r } = options[i];
    onAttach({ serverId: server.id, serverName: server.name, uri: r.uri, name: r.title ?? r.name });
  };
  const listbox = useListbox({ open: true, count: options.length, onPick: attachOption, onClose });
  return (
    <div data-testid="resource-picker" className="max-h-80 overflow-y-auto rounded-md border border-border bg-surface p-3 text-sm shadow">
      <div className="mb-2 flex items-center gap-2">
        <span className="font-medium">Attach resources</span>
        <Button variant="ghost" size="sm" onClick={onClose} className="ml-auto">
          Close
        </Button>
      </div>
      <Input
        ref={search}
        aria-label="Search resources"
        placeholder="Search resources…"
        {...listbox.fieldProps}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          // Tab leaves the field as usual here: there is no text to protect from sending.
          if (e.key !== "Tab") listbox.onKeyDown(e);
        }}
        className="mb-2"
      />
      {!data && !problem && <p className="text-xs text-muted-foreground">Loading…</p>}
      {problem && (
        <p role="alert" className="text-xs text-destructive">
          {problem}
        </p>
      )}
      {data?.length === 0 && <p className="text-xs text-muted-foreground">No servers.</p>}
      <ul {...listbox.listboxProps} aria-label="Resources">
        {options.map(({ server, resource: r }, i) => (
          <li
            key={`${server.id}:${r.uri}`}
            data-testid="attach-resource"
            data-uri={r.uri}
            {...listbox.optionProps(i)}
            className={cn("flex min-w-0 cursor-pointer items-center gap-2 rounded px-2 py-0.5", i === listbox.active && "bg-primary/10")}
          >
            <span className="shrink-0 text-xs text-muted-foreground">{server.name}</span>
            <span className="truncate" title={r.uri}>
              {r.title ?? r.name}
            </span>
            <code className="truncate text-xs text-muted-foreground">{r.uri}</code>
          </li>
        ))}
      </ul>
      {data?.map(({ server, templates, error }) => (
        <section key={server.id} className="mt-2">
          {(error || templates.length > 0) && <h3 className="text-xs font-semibold uppercase text-muted-foreground">{server.name}</h3>}
          {error && (
            <p role="alert" className="text-xs text-destructive">
              {error}
            </p>
          )}
          {templates.map((t) => (
            <div key={t.uriTemplate} className="py-1">
              <div className="text-xs">
                {t.title ?? t.name} <code className="break-all text-muted-foreground">{t.uriTemplate}</code>
              </div>
              <TemplateForm server={server} template={t} onAttach={onAttach} />
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
