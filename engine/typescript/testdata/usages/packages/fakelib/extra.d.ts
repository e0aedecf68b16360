export declare function helper(): void;
