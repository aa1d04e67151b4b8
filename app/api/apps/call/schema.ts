export { appCallSchema as appCallBody } from "@/lib/apps/app-calls";
