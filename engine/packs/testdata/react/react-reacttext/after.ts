import type { ReactText } from 'react';
import * as React from 'react';
export type T = (string | number)[];
export type U = { id: string | number };
