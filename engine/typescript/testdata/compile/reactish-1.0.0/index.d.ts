// reactish 1: element types come from the global JSX namespace.
export declare function createElement(type: any, props?: any, ...children: any[]): any;
declare global {
    namespace JSX {
        interface Element {}
        interface IntrinsicElements {
            [name: string]: any;
        }
    }
}
