export declare class KitError {
    errors: { message: string }[];
    issues: { message: string }[];
}
export declare function check(x: unknown): { error: KitError };
