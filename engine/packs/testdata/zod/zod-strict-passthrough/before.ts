import { z } from 'zod';
export const user = z.object({
  name: z.string().min(1, 'a ) in a string'), // a comment with a )
  tags: z.array(z.string()),
}).strict();
export const flat = z.object({ id: z.number() }).strict();
export const chained = z.object({ a: z.string() })
  .strict()
  .optional();
export const base = z.object({ a: z.string() });
export const later = base.strict();
export const messaged = z.object({}).strict('no extras');
