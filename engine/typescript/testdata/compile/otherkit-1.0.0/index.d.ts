export declare const other: number;
