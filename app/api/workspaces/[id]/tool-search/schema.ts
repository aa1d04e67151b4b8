export { toolSearchSettingsSchema as toolSearchBody } from "@/lib/workspaces/tool-search-settings";
