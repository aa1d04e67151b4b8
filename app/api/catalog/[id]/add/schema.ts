export { catalogAddSchema as catalogAddBody } from "@/lib/use-cases/catalog";
