import { z } from 'zod';
export const name = z.string({ error: (iss) => iss.input === undefined ? 'Name is required' : undefined }).min(1);
export const age = z.number({
  error: (iss) => iss.input === undefined ? "Age is required" : "Age must be a number",
  description: 'years',
});
export const id = z.string({ error: (iss) => iss.input === undefined ? undefined : 'Id must be a string' });
