// Shaped after @types/react 19: a callback ref may return its cleanup,
// typed with a unique symbol, so the type belongs to this file alone and a
// second copy of it is another type. legacy() is gone.
declare const UNDEFINED_VOID_ONLY: unique symbol;
type VoidOrUndefinedOnly = void | { [UNDEFINED_VOID_ONLY]: never };

export type RefCallback<T> = (instance: T | null) => void | (() => VoidOrUndefinedOnly);

export declare function createRef<T>(): RefCallback<T>;
