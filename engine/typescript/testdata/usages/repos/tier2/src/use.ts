import { client } from './client';

client.get('a');
client.timeout = 3;
client.configure({ retries: 2 });
const loose = { retries: 1 };
const local = { get: (k: string) => k };
local.get('b');
export { loose };
