export { appRequestSchema as appRequestBody } from "@/lib/apps/app-calls";
