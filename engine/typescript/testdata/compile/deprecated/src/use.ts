import { check, configure, hooks } from 'paramkit';

check({ message: 'too short' });
configure({ legacy: 1 });
hooks({ onDone() {} });
hooks({ 'onDone': () => {} });
export const local = { message: 'not a params object' };
