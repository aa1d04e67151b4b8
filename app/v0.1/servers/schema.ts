export { registryListQuerySchema as registryListQuery } from "@/lib/use-cases/catalog";
