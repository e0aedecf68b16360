import { check, configure, hooks, length } from 'paramkit';

check({ message: 'too short' });
configure({ legacy: 1 });
hooks({ onDone() {} });
hooks({ 'onDone': () => {} });
export const local = { message: 'not a params object' };
length(1, { message: 'exactly one' });
