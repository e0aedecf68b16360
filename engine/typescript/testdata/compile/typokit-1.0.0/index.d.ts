export declare function format(value: number): string;
