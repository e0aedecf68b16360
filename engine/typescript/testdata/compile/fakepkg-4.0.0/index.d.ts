import type { Level } from 'helper';

export declare function greet(name: string, greeting: string): string;

export interface Options {
  verbose: boolean;
  retries: number;
}

export declare function configure(options: Options): void;

export declare function level(): Level;

export declare const VERSION: string;

// A const type parameter: TypeScript 5.0 syntax.
export declare function tuple<const T extends readonly unknown[]>(...items: T): T;
