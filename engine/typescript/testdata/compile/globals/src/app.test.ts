import { expect } from 'assertkit';
import { greet } from 'fakepkg';

expect(greet('a', 'b')).toBeInTheDocument();
expect(legacyTitle(__APP_VERSION__)).toBe('X');
expect(window.appConfig.locale).toBe('en');
expect(__VENDOR__.id).toBe(1);
// commented out: import 'not-a-real-package';
const n: number = 'already broken';
