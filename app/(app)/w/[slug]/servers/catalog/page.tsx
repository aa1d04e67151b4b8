import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { CatalogBrowser } from "@/app/_components/servers/catalog-browser";

/** The server catalog as this workspace sees it: search, and Add with a form generated from the entry. */
export default async function WorkspaceCatalogPage({ params }: { params: Promise<{ slug: string }> }) {
  await requirePageWorkspace((await params).slug);
  return <CatalogBrowser />;
}
