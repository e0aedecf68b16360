import { check } from "errkit";
export const messages = check(1).error.errors.map((e) => e.message);
check(2).error.errors.forEach(({ message }) => message);
