import { version } from 'fakelib';

console.log(version);
