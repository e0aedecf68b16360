// Published with an error its own build skipped: a name it never declares.
export declare function format(value: number, options?: FormatOptions): string;
