"use client";
/**
 * Browse each server's resources and resource templates and attach them to the next message.
 * Templates get a small form for their variables; the content is read on the server at send time.
 */
import { useEffect, useState } from "react";
import type { Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import { expandTemplate, templateVariables } from "@/lib/agent/uri-template";
import { listResources, listServers, type ServerSummary } from "../api-client";

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
        <label key={v} className="text-xs">
          {v}
          <input
            aria-label={`${template.name} ${v}`}
            required
            value={values[v] ?? ""}
            onChange={(e) => setValues({ ...values, [v]: e.target.value })}
            className="ml-1 w-28 rounded border px-1 dark:bg-zinc-900"
          />
        </label>
      ))}
      <button type="submit" className="rounded bg-zinc-200 px-2 text-xs dark:bg-zinc-700">
        Attach
      </button>
    </form>
  );
}

/** The picker panel. */
export function ResourcePicker({ onAttach, onClose }: { onAttach: (a: Attachment) => void; onClose: () => void }) {
  const [data, setData] = useState<ServerResources[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    listServers()
      .then((servers) =>
        Promise.all(
          servers
            .filter((s) => s.config.enabled !== false)
            .map(async (server) => {
              try {
                const r = await listResources(server.id);
                return { server, resources: r.resources, templates: r.resourceTemplates };
              } catch (error) {
                return { server, resources: [], templates: [], error: (error as Error).message };
              }
            }),
        ),
      )
      .then(
        (d) => live && setData(d),
        (e: Error) => live && setProblem(e.message),
      );
    return () => {
      live = false;
    };
  }, []);
  return (
    <div
      data-testid="resource-picker"
      className="max-h-80 overflow-y-auto rounded border border-zinc-300 bg-white p-3 text-sm shadow dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div className="mb-2 flex items-center">
        <span className="font-medium">Attach resources</span>
        <button type="button" onClick={onClose} className="ml-auto text-xs text-zinc-500 hover:underline">
          Close
        </button>
      </div>
      {!data && !problem && <p className="text-xs text-zinc-500">Loading…</p>}
      {problem && <p className="text-xs text-red-700">{problem}</p>}
      {data?.length === 0 && <p className="text-xs text-zinc-500">No servers.</p>}
      {data?.map(({ server, resources, templates, error }) => (
        <section key={server.id} className="mb-3">
          <h3 className="text-xs font-semibold uppercase text-zinc-500">{server.name}</h3>
          {error && <p className="text-xs text-red-700">{error}</p>}
          {!error && resources.length === 0 && templates.length === 0 && <p className="text-xs text-zinc-500">No resources.</p>}
          <ul>
            {resources.map((r) => (
              <li key={r.uri} className="flex items-center gap-2 py-0.5">
                <button
                  type="button"
                  data-testid="attach-resource"
                  data-uri={r.uri}
                  onClick={() => onAttach({ serverId: server.id, serverName: server.name, uri: r.uri, name: r.title ?? r.name })}
                  className="rounded bg-zinc-200 px-2 text-xs dark:bg-zinc-700"
                >
                  Attach
                </button>
                <span className="truncate" title={r.uri}>
                  {r.title ?? r.name}
                </span>
                <code className="truncate text-xs text-zinc-500">{r.uri}</code>
              </li>
            ))}
          </ul>
          {templates.map((t) => (
            <div key={t.uriTemplate} className="py-1">
              <div className="text-xs">
                {t.title ?? t.name} <code className="text-zinc-500">{t.uriTemplate}</code>
              </div>
              <TemplateForm server={server} template={t} onAttach={onAttach} />
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
