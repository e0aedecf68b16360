import { z } from 'zod';
export const name = z.string({ required_error: 'Name is required' }).min(1);
export const age = z.number({
  required_error: "Age is required",
  invalid_type_error: "Age must be a number",
  description: 'years',
});
export const id = z.string({ invalid_type_error: 'Id must be a string' });
