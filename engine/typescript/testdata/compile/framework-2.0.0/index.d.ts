// What next's bundled @vercel/og types do to react: augment the runtime
// package's module, whose declarations live in @types.
import 'uikit-js';
declare module 'uikit-js' {
  interface Attrs {
    tw?: string;
  }
}
export declare function image(): void;
export declare function video(): void;
