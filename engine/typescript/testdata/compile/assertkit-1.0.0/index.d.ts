export interface Assertion<T = unknown> {
  toBe(expected: T): void;
}
export declare function expect<T>(actual: T): Assertion<T>;
