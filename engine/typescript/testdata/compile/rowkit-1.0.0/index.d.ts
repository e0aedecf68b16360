export type Rows = { n: number }[];
export declare function read(): Rows;
