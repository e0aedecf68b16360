import type { Props } from 'brandkit';
import type { Options } from 'brandkit/sub';

// Props and Options are one type: the package's entry read once.
export function options(p: Props): Options {
  return p;
}
