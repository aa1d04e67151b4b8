import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/use-cases/caller";
import { CatalogAdmin } from "@/app/_components/admin/catalog-admin";

/** The server catalog's administration: registries, server.json uploads, each entry's pin, visibility and status (instance administrators only). */
export default async function CatalogAdminPage() {
  const user = await requirePageUser();
  if (!user.isAdmin) notFound();
  return (
    <div className="py-4 sm:py-6">
      <CatalogAdmin />
    </div>
  );
}
