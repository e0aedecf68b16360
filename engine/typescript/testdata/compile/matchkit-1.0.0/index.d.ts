export interface Matchers<R> {
    toBe(x: unknown): R;
}
export declare function expect(x: unknown): Matchers<void>;
