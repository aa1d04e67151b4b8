import { connection } from "next/server";
import { SignInForm } from "@/app/_components/ui/sign-in-form";
import { freshInstance } from "@/lib/use-cases/account";

export default async function SignInPage() {
  await connection();
  return <SignInForm fresh={freshInstance()} />;
}
