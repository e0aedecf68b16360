export declare class ZString {
  min(n: number): ZString;
  max(n: number): ZString;
}
declare const stringType: () => ZString;
export { stringType as string };
export type TypeOf<T> = T extends { _t: infer U } ? U : never;
export type { TypeOf as infer };
