export interface Ref<T> {
    readonly current: T | null;
}
export declare function useRef<T>(initial: T | null): Ref<T>;
