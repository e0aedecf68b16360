import { Client } from 'fakelib';

export const c = new Client({ url: 'a' });
