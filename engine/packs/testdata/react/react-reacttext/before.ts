import type { ReactText } from 'react';
export type T = ReactText[];
