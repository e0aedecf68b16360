export interface Ref<T> {
    current: T;
}
export declare function useRef<T>(initial: T | null): Ref<T | null>;
