// reactish 2: no global JSX namespace any more.
export declare function createElement(type: any, props?: any, ...children: any[]): any;
