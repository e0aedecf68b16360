import { mc, Client, version } from './lib';

mc().get('x');
new Client({ url: 'u' });
console.log(version);
