import type { Level } from 'helper';

// greet lost its second parameter.
export declare function greet(name: string): string;

// retries was removed.
export interface Options {
  verbose: boolean;
}

export declare function configure(options: Options): void;

// Level is helper's: 2.x added 'max'.
export declare function level(): Level;

export declare const VERSION: string;
