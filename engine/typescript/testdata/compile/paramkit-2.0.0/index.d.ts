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
type Flatten<T> = { [K in keyof T]: T[K] } & {};
// One declaration of message serves every params type (zod 4's Params).
type Params<Extra> = Flatten<Partial<Extra> & {
    error?: string;
    /** @deprecated This parameter is deprecated. Use `error` instead. */
    message?: string;
}>;
export type LengthParams = Params<{ exact: boolean }>;
export declare function check(params?: string | CheckParams): void;
export declare function length(n: number, params?: string | LengthParams): void;
export declare function configure(opts: Legacy): void;
export declare function hooks(h: Hooks): void;
