import { configure, greet, level, VERSION } from 'fakepkg';

export function hello(who: string): string {
  return greet(who, 'hello');
}

configure({ verbose: true, retries: 3 });

export const current: 'low' | 'high' = level();

export const version: string = VERSION;
