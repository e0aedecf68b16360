// A params object typed by a literal inside an alias (zod 3's
// errorUtil.ErrMessage): the key has no declaration of its own to diff.
export declare namespace errorUtil {
    type ErrMessage = string | { message?: string };
}
export interface Legacy {
    /** @deprecated Use modern. */
    legacy?: number;
    modern?: number;
}
export interface Hooks {
    onDone?: () => void;
}
export declare function check(params?: errorUtil.ErrMessage): void;
export declare function length(n: number, params?: errorUtil.ErrMessage): void;
export declare function configure(opts: Legacy): void;
export declare function hooks(h: Hooks): void;
