import { check } from "errkit";
export const messages = check(1).error.errors.map((e) => e.message);
