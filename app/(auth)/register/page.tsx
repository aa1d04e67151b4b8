import { connection } from "next/server";
import { RegisterForm } from "@/app/_components/ui/register-form";
import { getDb } from "@/db/client";
import { isFreshInstance } from "@/lib/auth/first-run";

export default async function RegisterPage() {
  await connection();
  return <RegisterForm fresh={isFreshInstance(getDb())} />;
}
