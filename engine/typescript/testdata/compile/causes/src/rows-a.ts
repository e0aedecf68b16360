import { make } from "./make";
const v = make();
export const n = v.length;
