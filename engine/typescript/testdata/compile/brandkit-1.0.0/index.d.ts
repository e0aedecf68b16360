// A unique symbol makes Branded nominal, as @types/react 19's
// VoidOrUndefinedOnly is: two reads of this file are two unrelated types.
declare const brand: unique symbol;
export interface Branded {
  [brand]: never;
}
export interface Props {
  done?: () => void | Branded;
}
