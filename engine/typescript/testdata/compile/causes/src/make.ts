import { read } from "rowkit";
export function make() {
  return read();
}
