export { appContextSchema as appContextBody } from "@/lib/apps/app-context";
