const lib = require('fakelib');
lib.createClient().get('x');
const { makeClient } = require('fakelib');
makeClient();
new lib.Client({ url: 'u' });
export {};
