export { appContextSchema as appContextBody } from "@/lib/use-cases/app-context";
