import { VFC } from 'react';
export const A: VFC = () => null;
