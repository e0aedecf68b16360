// @ts-check
const { Client } = require('fakelib');

new Client({ url: 'u' });
