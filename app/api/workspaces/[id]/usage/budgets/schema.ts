export { budgetBodySchema as budgetBody } from "@/lib/use-cases/usage";
