import type { Ref } from "refkit";
export class Box {
  w = 0;
}
export function useWheel(ref: Ref<Box>): number {
  return ref.current ? ref.current.w : 0;
}
