export { appRequestSchema as appRequestBody } from "@/lib/use-cases/app-calls";
