export { entryChangeSchema as entryChangeBody } from "@/lib/use-cases/catalog";
