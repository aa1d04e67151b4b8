import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/use-cases/caller";
import { AdminView } from "@/app/_components/admin/admin-view";

/** Instance administration: users, workspaces, audit log (instance administrators only). */
export default async function AdminPage() {
  const user = await requirePageUser();
  if (!user.isAdmin) notFound();
  return <AdminView meId={user.id} />;
}
