// Syntax from a TypeScript newer than the repository's.
export declare function greet(name: string, greeting: string): string;
export declare type Future<T> = T ~> never;
