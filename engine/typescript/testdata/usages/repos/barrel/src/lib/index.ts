export { createClient as mc, Client } from 'fakelib';
export * from 'fakelib';
