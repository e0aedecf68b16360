export declare const screen: { getByText(text: string): unknown };
export declare function waitFor(check: () => void): Promise<void>;
