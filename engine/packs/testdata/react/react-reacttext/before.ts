import type { ReactText } from 'react';
import * as React from 'react';
export type T = ReactText[];
export type U = { id: React.ReactText };
