export declare const ApiVersion = "2026-11-18.endive";
export declare const ApiMajorVersion = "endive";
