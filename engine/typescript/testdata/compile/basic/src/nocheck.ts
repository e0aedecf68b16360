// @ts-nocheck
import { greet } from 'fakepkg';

export const skipped = greet('x', 'y');
