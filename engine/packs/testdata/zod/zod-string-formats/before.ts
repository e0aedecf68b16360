import { z } from 'zod';
export const e = z.string().email().max(50);
export const u = z.string().url({ message: 'bad' });
