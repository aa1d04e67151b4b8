export { auditQuery } from "../schema";
