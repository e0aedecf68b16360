export type Rows = unknown;
export declare function read(): Rows;
