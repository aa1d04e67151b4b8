export { usageQuerySchema as usageQuery } from "@/lib/use-cases/usage";
