export { registryChangeSchema as registryChangeBody } from "@/lib/use-cases/catalog";
