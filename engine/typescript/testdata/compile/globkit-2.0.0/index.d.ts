export interface Toolkit {
    base(): void;
}
export declare const kit: Toolkit;
