export { invitationRegisterSchema as invitationRegisterBody } from "@/lib/use-cases/workspaces";
