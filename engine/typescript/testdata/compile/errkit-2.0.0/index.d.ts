export declare class KitError {
    issues: { message: string }[];
}
export declare function check(x: unknown): { error: KitError };
