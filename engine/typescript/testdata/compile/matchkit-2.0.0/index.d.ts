export interface Assertion<R> {
    toBe(x: unknown): R;
}
export declare function expect(x: unknown): Assertion<void>;
