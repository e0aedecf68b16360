import { client } from './client';

client.get('a');
client.timeout = 3;
client.configure({ retries: 2 });
const loose = { retries: 1 };
const local = { get: (k: string) => k };
local.get('b');
export { loose };
// Not rooted at an import: only names few symbols carry are resolved.
const [again] = [client];
console.log(again.name);
