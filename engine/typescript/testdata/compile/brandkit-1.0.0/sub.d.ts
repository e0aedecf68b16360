// A relative import of the package's own entry, as @types/react's
// jsx-runtime.d.ts imports "./".
import * as Kit from "./";
export type Options = Kit.Props;
