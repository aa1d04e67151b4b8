"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "../api-client";

/** One of the caller's workspaces as the switcher lists it. */
export interface SwitcherWorkspace {
  id: string;
  slug: string;
  name: string;
  role: string;
  personal: boolean;
}

const SECTIONS = [
  { path: "chat", label: "Chat" },
  { path: "servers", label: "Servers" },
  { path: "settings", label: "Settings" },
];

/** The header's workspace switcher and main navigation, both following the workspace in the URL. */
export function WorkspaceNav({ workspaces, isAdmin }: { workspaces: SwitcherWorkspace[]; isAdmin: boolean }) {
  const pathname = usePathname();
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const match = /^\/w\/([^/]+)(?:\/([^/]+))?/.exec(pathname);
  const slug = match ? decodeURIComponent(match[1]) : "personal";
  const section = match?.[2] && SECTIONS.some((s) => s.path === match[2]) ? match[2] : "chat";

  return (
    <>
      <select
        aria-label="Workspace"
        data-testid="workspace-switcher"
        className="input w-auto py-1"
        value={slug}
        onChange={(e) => {
          if (e.target.value === "__new") return setCreating(true);
          router.push(`/w/${encodeURIComponent(e.target.value)}/${section}`);
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.slug}>
            {w.personal ? "Personal" : w.name}
          </option>
        ))}
        <option value="__new">+ New workspace…</option>
      </select>
      {creating && (
        <form
          className="flex items-center gap-1"
          onSubmit={async (e) => {
            e.preventDefault();
            const name = String(new FormData(e.currentTarget).get("name") ?? "");
            try {
              const created = await api<{ slug: string }>("/api/workspaces", { method: "POST", json: { name } });
              setCreating(false);
              router.push(`/w/${created.slug}/servers`);
              router.refresh();
            } catch (err) {
              setError((err as Error).message);
            }
          }}
        >
          <input className="input py-1" name="name" aria-label="New workspace name" placeholder="Team name" required maxLength={80} />
          <button className="btn-primary py-1" type="submit">
            Create
          </button>
          <button className="btn-secondary py-1" type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
          {error && <span className="field-error">{error}</span>}
        </form>
      )}
      <nav className="flex gap-4 text-sm" aria-label="Main">
        {SECTIONS.map((item) => (
          <Link
            key={item.path}
            href={`/w/${encodeURIComponent(slug)}/${item.path}`}
            className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white"
          >
            {item.label}
          </Link>
        ))}
        {/* The account (password, sign out of all devices) is the person's, not the workspace's. */}
        <Link href="/account" className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white">
          Account
        </Link>
        {isAdmin && (
          <Link href="/admin" className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-white">
            Admin
          </Link>
        )}
      </nav>
    </>
  );
}
