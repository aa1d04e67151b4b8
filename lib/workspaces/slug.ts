/** Workspace URL names: lower-case words joined by dashes, never the reserved `personal`. */
import { PERSONAL_SLUG } from "../../db/queries/workspaces";

const RESERVED = new Set([PERSONAL_SLUG, "new", "admin", "api"]);

/** A slug from a workspace name ("Acme Corp!" → "acme-corp"); may be empty for names of symbols only. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

/**
 * A free slug for `name`: the plain slug, else with `-2`, `-3`, … appended. `taken` says whether
 * a candidate is in use; reserved words and empty slugs get a suffix too.
 */
export async function uniqueSlug(name: string, taken: (slug: string) => boolean | Promise<boolean>): Promise<string> {
  const base = slugify(name) || "workspace";
  const free = async (slug: string) => !RESERVED.has(slug) && !(await taken(slug));
  if (await free(base)) return base;
  for (let n = 2; n < 1000; n++) if (await free(`${base}-${n}`)) return `${base}-${n}`;
  return `${base}-${Date.now().toString(36)}`;
}
