import { z } from 'zod';
export const e = z.email().max(50);
export const u = z.url({ message: 'bad' });
