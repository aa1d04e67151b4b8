import { connection } from "next/server";
import { SignInForm } from "@/app/_components/ui/sign-in-form";
import { getDb } from "@/db/client";
import { isFreshInstance } from "@/lib/auth/first-run";

export default async function SignInPage() {
  await connection();
  return <SignInForm fresh={isFreshInstance(getDb())} />;
}
