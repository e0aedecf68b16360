// The params become an interface whose message key is deprecated (zod 4's
// $ZodCheckParams); legacy was deprecated already; onDone is newly so.
export interface CheckParams {
    error?: string;
    /** @deprecated This parameter is deprecated. Use `error` instead. */
    message?: string;
}
export interface Legacy {
    /** @deprecated Use modern. */
    legacy?: number;
    modern?: number;
}
export interface Hooks {
    /** @deprecated Use onFinish. */
    onDone?: () => void;
    onFinish?: () => void;
}
export declare function check(params?: string | CheckParams): void;
export declare function configure(opts: Legacy): void;
export declare function hooks(h: Hooks): void;
