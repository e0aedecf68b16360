import * as z from 'zod';
export const event = z.object({ type: z.string() }).passthrough();
