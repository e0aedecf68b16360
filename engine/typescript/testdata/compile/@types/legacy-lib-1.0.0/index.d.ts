export declare function run(task: string, retries: number): void;
