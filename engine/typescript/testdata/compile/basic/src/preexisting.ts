import { greet } from 'fakepkg';

// Broken before any upgrade: not the upgrade's to report.
export const count: number = 'three';

export const twice = greet('a', 'b') + greet('c', 'd');
