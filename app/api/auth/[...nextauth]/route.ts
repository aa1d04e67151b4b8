import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
