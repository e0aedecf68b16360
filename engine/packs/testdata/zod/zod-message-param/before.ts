import { z } from 'zod';
export const s = z.string().min(1, { message: 'Too short' });
