export declare function run(task: string): void;
