export { registryInputSchema as registryBody } from "@/lib/use-cases/catalog";
