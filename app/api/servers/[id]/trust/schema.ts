export { trustUpdateSchema as trustBody } from "@/lib/use-cases/trust-ops";
