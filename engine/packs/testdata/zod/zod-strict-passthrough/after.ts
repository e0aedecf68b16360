import { z } from 'zod';
export const user = z.strictObject({
  name: z.string().min(1, 'a ) in a string'), // a comment with a )
  tags: z.array(z.string()),
});
export const flat = z.strictObject({ id: z.number() });
export const chained = z.strictObject({ a: z.string() })
  .optional();
export const base = z.object({ a: z.string() });
export const later = base.strict();
export const messaged = z.object({}).strict('no extras');
