export { removeFactorSchema as removeFactorBody } from "@/lib/use-cases/second-factors";
