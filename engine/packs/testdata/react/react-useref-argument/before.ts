import { useRef } from 'react';
export function f() {
  const r = useRef<HTMLDivElement>();
  const s = useRef();
  return [r, s];
}
