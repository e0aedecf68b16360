import { z } from 'zod';
export function n(err: z.ZodError) {
  return err.errors.length;
}
