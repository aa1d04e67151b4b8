import { handleSignIn } from "@/lib/use-cases/account";

export { handleSignIn as GET, handleSignIn as POST };
