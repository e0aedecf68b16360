export interface Attrs {
  id?: string;
}
export declare function el(attrs: Attrs): void;
