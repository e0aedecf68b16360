// Shaped after @types/react 18: a callback ref returns nothing.
export type RefCallback<T> = (instance: T | null) => void;

export declare function createRef<T>(): RefCallback<T>;
export declare function legacy(): void;
