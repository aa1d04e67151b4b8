export { browseQuerySchema as browseQuery } from "@/lib/use-cases/catalog";
