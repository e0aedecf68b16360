import { make } from "./make";
const w = make();
export const m = w.length;
