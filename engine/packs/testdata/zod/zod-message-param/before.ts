import { z } from 'zod';
export const s = z.string().min(1, { message: 'Too short' });
export const t = z.string({ message: "Title must be text", description: 'title' });
export const r = z.string().refine((v) => v.length > 0, { message: `Empty`, path: ['nick'] });
const message = 'Bad tag';
export const o = z.object({ tag: z.string() }, { message });
export const q = z.number().int({ 'message': 'Whole numbers only' });
export const m = z.string().max(9, {
  message: 'Too long',
});
