export { serverBody } from "../schema";
