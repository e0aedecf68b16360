declare global {
    interface Kit {
        base(): void;
    }
}
export declare const kit: Kit;
