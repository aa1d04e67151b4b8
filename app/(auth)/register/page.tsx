import { connection } from "next/server";
import { RegisterForm } from "@/app/_components/ui/register-form";
import { freshInstance } from "@/lib/use-cases/account";

export default async function RegisterPage() {
  await connection();
  return <RegisterForm fresh={await freshInstance()} />;
}
