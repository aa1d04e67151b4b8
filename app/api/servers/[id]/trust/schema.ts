export { trustUpdateSchema as trustBody } from "@/lib/trust/trust-service";
