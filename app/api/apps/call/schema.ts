export { appCallSchema as appCallBody } from "@/lib/use-cases/app-calls";
