export { catalogUpdateSchema as catalogUpdateBody } from "@/lib/use-cases/catalog";
