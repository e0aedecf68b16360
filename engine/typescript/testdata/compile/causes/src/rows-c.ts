import { read } from "rowkit";
export const k = read().length;
