export { toolSearchSettingsSchema as toolSearchBody } from "@/lib/use-cases/workspaces";
