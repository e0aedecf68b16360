import { run } from 'legacy-lib';

run('build', 2);
