import { make, type Options } from "typedlib";

const options: Options = { depth: 1 };
export const made = make(options);
