export { updateUserSchema as updateUserBody } from "@/lib/use-cases/admin";
