export { createUserSchema as createUserBody, userSearchSchema as userSearchQuery } from "@/lib/use-cases/admin";
