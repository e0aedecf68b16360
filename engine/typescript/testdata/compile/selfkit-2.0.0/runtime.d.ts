// Shaped after @types/react's jsx-runtime.d.ts, which reads the package's
// index through "./".
import * as Kit from "./";

export declare function attach<T>(ref: Kit.RefCallback<T>): void;
