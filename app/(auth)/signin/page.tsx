import { SignInForm } from "@/app/_components/ui/sign-in-form";

export default function SignInPage() {
  return <SignInForm />;
}
