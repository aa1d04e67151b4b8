import { RegisterForm } from "@/app/_components/ui/register-form";

export default function RegisterPage() {
  return <RegisterForm />;
}
