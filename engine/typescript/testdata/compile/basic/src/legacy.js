import { greet } from 'fakepkg';

// The repository never type-checks this file; Signal B does, on both sides.
export const line = greet('x', 'y');
