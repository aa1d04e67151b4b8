import { handleNextAuth } from "@/lib/auth/nextauth-handler";

export { handleNextAuth as GET, handleNextAuth as POST };
