export interface Options {
  depth: number;
}
export declare function make(options: Options): string;
