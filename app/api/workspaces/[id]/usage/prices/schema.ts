export { priceBodySchema as priceBody } from "@/lib/use-cases/usage";
