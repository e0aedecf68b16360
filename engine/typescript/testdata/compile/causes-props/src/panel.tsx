import * as React from "reactish";
import type { Ref } from "refkit";
export class Box {
  w = 0;
}
export function Panel(props: { target: Ref<Box> }) {
  return props.target.current ? null : null;
}
