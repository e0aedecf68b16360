import { z } from 'zod';
export const s = z.string().min(1, { error: 'Too short' });
export const t = z.string({ error: "Title must be text", description: 'title' });
export const r = z.string().refine((v) => v.length > 0, { error: `Empty`, path: ['nick'] });
const message = 'Bad tag';
export const o = z.object({ tag: z.string() }, { error: message });
export const q = z.number().int({ 'error': 'Whole numbers only' });
export const m = z.string().max(9, {
  error: 'Too long',
});
