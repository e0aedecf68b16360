const { createClient } = require('fakelib');
const lib = require('fakelib');

const c = createClient({ url: 'x' });
c.get('k');
lib.makeClient();
const name = process.env.LIB || 'fakelib';
const dyn = require(name);
register(require('fakelib'));
module.exports = { c, dyn };
