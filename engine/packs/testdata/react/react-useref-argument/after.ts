import { useRef } from 'react';
export function f() {
  const r = useRef<HTMLDivElement | undefined>(undefined);
  const s = useRef(undefined);
  return [r, s];
}
