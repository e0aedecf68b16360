import { createClient } from 'fakelib';

export const client = createClient();
